//! The exhaustive proof for engine/tp-math.c: every f32 bit pattern through
//! our C (linked in by build.rs) and through the Rust `libm` crate, compared
//! bit for bit.
//!
//! libm-exhaustive [--threads N] [FUNCTION...]
//!     FUNCTION is any of expf logf tanhf sinf cosf sqrtf (default: all).
//!     Prints, per function, the number of inputs whose results differ in
//!     any bit, how many of those are NaN on both sides (payload or sign
//!     only), the first few differing inputs, and the time taken. Exits 1
//!     if any result differs.
//!
//! Run it through tools/libm-exhaustive or `ninja libm-exhaustive`.

use std::env;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::Instant;

extern "C" {
    fn tp_expf(x: f32) -> f32;
    fn tp_logf(x: f32) -> f32;
    fn tp_tanhf(x: f32) -> f32;
    fn tp_sinf(x: f32) -> f32;
    fn tp_cosf(x: f32) -> f32;
    fn tp_sqrtf(x: f32) -> f32;
}

struct Function {
    name: &'static str,
    ours: unsafe extern "C" fn(f32) -> f32,
    theirs: fn(f32) -> f32,
}

const FUNCTIONS: [Function; 6] = [
    Function { name: "expf", ours: tp_expf, theirs: libm::expf },
    Function { name: "logf", ours: tp_logf, theirs: libm::logf },
    Function { name: "tanhf", ours: tp_tanhf, theirs: libm::tanhf },
    Function { name: "sinf", ours: tp_sinf, theirs: libm::sinf },
    Function { name: "cosf", ours: tp_cosf, theirs: libm::cosf },
    Function { name: "sqrtf", ours: tp_sqrtf, theirs: libm::sqrtf },
];

/// Inputs are handed out in blocks of 2^20 patterns; 4096 blocks in all.
const BLOCK_BITS: u32 = 20;
const BLOCKS: u32 = 1 << (32 - BLOCK_BITS);
const SHOWN: usize = 8;

#[derive(Default)]
struct Tally {
    differing: u64,
    nan_only: u64,
    first: Vec<(u32, u32, u32)>,
}

fn compare(f: &Function, threads: usize) -> Tally {
    let next = AtomicU32::new(0);
    let tally = Mutex::new(Tally::default());
    thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut local = Tally::default();
                loop {
                    let block = next.fetch_add(1, Ordering::Relaxed);
                    if block >= BLOCKS {
                        break;
                    }
                    let start = block << BLOCK_BITS;
                    for i in 0..(1u32 << BLOCK_BITS) {
                        let bits = start | i;
                        let x = f32::from_bits(bits);
                        let ours = unsafe { (f.ours)(x) };
                        let theirs = (f.theirs)(x);
                        if ours.to_bits() != theirs.to_bits() {
                            local.differing += 1;
                            if ours.is_nan() && theirs.is_nan() {
                                local.nan_only += 1;
                            }
                            if local.first.len() < SHOWN {
                                local.first.push((bits, ours.to_bits(), theirs.to_bits()));
                            }
                        }
                    }
                }
                let mut t = tally.lock().unwrap();
                t.differing += local.differing;
                t.nan_only += local.nan_only;
                t.first.extend(local.first);
            });
        }
    });
    let mut t = tally.into_inner().unwrap();
    t.first.sort();
    t.first.truncate(SHOWN);
    t
}

fn main() -> ExitCode {
    let mut threads = thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
    let mut chosen: Vec<&Function> = Vec::new();
    let mut args = env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--threads" {
            threads = match args.next().and_then(|v| v.parse().ok()) {
                Some(n) if n > 0 => n,
                _ => {
                    eprintln!("libm-exhaustive: --threads wants a positive number");
                    return ExitCode::from(2);
                }
            };
        } else if let Some(f) = FUNCTIONS.iter().find(|f| f.name == a) {
            chosen.push(f);
        } else {
            eprintln!("usage: libm-exhaustive [--threads N] [expf|logf|tanhf|sinf|cosf|sqrtf]...");
            return ExitCode::from(2);
        }
    }
    if chosen.is_empty() {
        chosen = FUNCTIONS.iter().collect();
    }

    println!(
        "engine/tp-math.c against libm {} on all 2^32 f32 inputs, {} threads",
        env!("TP_LIBM_VERSION"),
        threads
    );
    let all = Instant::now();
    let mut failed = false;
    for f in chosen {
        let started = Instant::now();
        let t = compare(f, threads);
        println!(
            "{:<6} {:>10} differing inputs ({} NaN on both sides)  {:>7.1} s",
            f.name,
            t.differing,
            t.nan_only,
            started.elapsed().as_secs_f64()
        );
        for (bits, ours, theirs) in &t.first {
            println!(
                "         x = {:08x} ({:e}): ours {:08x} ({:e}), libm {:08x} ({:e})",
                bits,
                f32::from_bits(*bits),
                ours,
                f32::from_bits(*ours),
                theirs,
                f32::from_bits(*theirs)
            );
        }
        failed |= t.differing != 0;
    }
    println!("total {:.1} s", all.elapsed().as_secs_f64());
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
