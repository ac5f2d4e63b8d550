//! Reference oracle for engine/tp-math.c: the Rust `libm` crate.
//!
//! libm-ref IN OUT
//!     IN holds f32 bit patterns, 4 bytes each, little-endian. OUT receives,
//!     for each of expf, logf, tanhf, sinf, cosf and sqrtf in that order,
//!     the crate's result for every pattern of IN, in the same layout.
//! libm-ref --version
//!     prints the libm version this binary was locked to.
//!
//! Used by tests/math/test-math.c; never by the product.

use std::env;
use std::fs;
use std::process::ExitCode;

const FUNCTIONS: [fn(f32) -> f32; 6] = [
    libm::expf,
    libm::logf,
    libm::tanhf,
    libm::sinf,
    libm::cosf,
    libm::sqrtf,
];

fn main() -> ExitCode {
    let args: Vec<String> = env::args().collect();
    if args.len() == 2 && args[1] == "--version" {
        println!("libm {}", env!("TP_LIBM_VERSION"));
        return ExitCode::SUCCESS;
    }
    if args.len() != 3 {
        eprintln!("usage: libm-ref IN OUT | libm-ref --version");
        return ExitCode::from(2);
    }
    let input = match fs::read(&args[1]) {
        Ok(bytes) if bytes.len() % 4 == 0 => bytes,
        Ok(_) => {
            eprintln!("libm-ref: {}: length is not a multiple of 4", args[1]);
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("libm-ref: {}: {}", args[1], e);
            return ExitCode::FAILURE;
        }
    };
    let xs: Vec<f32> = input
        .chunks_exact(4)
        .map(|c| f32::from_bits(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
        .collect();
    let mut out = Vec::with_capacity(input.len() * FUNCTIONS.len());
    for f in FUNCTIONS {
        for &x in &xs {
            out.extend_from_slice(&f(x).to_bits().to_le_bytes());
        }
    }
    if let Err(e) = fs::write(&args[2], &out) {
        eprintln!("libm-ref: {}: {}", args[2], e);
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
