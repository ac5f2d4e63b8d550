//! Reference oracle for engine/tp-fmt.c.
//!
//! tp-fmt-ref fmt     stdin: one f32 bit pattern per line (8 hex digits)
//!                    stdout: `{}` TAB `{:?}` per line
//! tp-fmt-ref parse   stdin: one string per line (no newline inside)
//!                    stdout: the parsed bits (8 hex digits) or `err` per line
//! tp-fmt-ref hash START COUNT
//!                    formats the COUNT bit patterns from START (hex) and
//!                    prints, for each block of 65536 patterns, the block's
//!                    first pattern and an FNV-1a 64 hash over
//!                    display NUL debug NUL of every pattern in it.
//!
//! The same I/O is implemented by tests/fmt/fmt-compare.c on top of our C code.

use std::fmt::Write as _;
use std::io::{self, BufRead, BufWriter, Read, Write};

fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn hex(s: &str) -> u32 {
    u32::from_str_radix(s.trim(), 16).expect("bad hex bit pattern")
}

fn run_fmt(out: &mut impl Write) -> io::Result<()> {
    let mut input = String::new();
    io::stdin().lock().read_to_string(&mut input)?;
    let mut line = String::new();
    for tok in input.split_ascii_whitespace() {
        let x = f32::from_bits(hex(tok));
        line.clear();
        write!(line, "{}\t{:?}\n", x, x).unwrap();
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

fn run_parse(out: &mut impl Write) -> io::Result<()> {
    let mut stdin = io::stdin().lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if stdin.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
        }
        let text = std::str::from_utf8(&buf).expect("test strings are UTF-8");
        match text.parse::<f32>() {
            Ok(v) => writeln!(out, "{:08x}", v.to_bits())?,
            Err(_) => out.write_all(b"err\n")?,
        }
    }
    Ok(())
}

fn run_hash(start: u32, count: u64, out: &mut impl Write) -> io::Result<()> {
    let mut s = String::new();
    let mut bits = start as u64;
    let end = bits + count;
    while bits < end {
        let block_end = (bits + 65536).min(end);
        let first = bits;
        let mut h = 0xcbf29ce484222325u64;
        while bits < block_end {
            let x = f32::from_bits(bits as u32);
            s.clear();
            write!(s, "{}\0{:?}\0", x, x).unwrap();
            h = fnv(h, s.as_bytes());
            bits += 1;
        }
        writeln!(out, "{:08x} {:016x}", first, h)?;
    }
    Ok(())
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    match args.get(1).map(String::as_str) {
        Some("fmt") => run_fmt(&mut out)?,
        Some("parse") => run_parse(&mut out)?,
        Some("hash") if args.len() == 4 => {
            let start = hex(&args[2]);
            let count: u64 = args[3].parse().expect("bad count");
            run_hash(start, count, &mut out)?
        }
        _ => {
            eprintln!("usage: tp-fmt-ref fmt | parse | hash START COUNT");
            std::process::exit(2);
        }
    }
    out.flush()
}
