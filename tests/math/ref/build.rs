//! Records the resolved libm version for `--version` and, with the
//! `exhaustive` feature, compiles engine/tp-math.c the way meson does
//! (-O2, no FMA contraction, no fast math) for the libm-exhaustive binary.
//! TP_MATH_SOURCE, if set, names the C file to compile instead.

use std::env;
use std::fs;
use std::path::PathBuf;

fn locked_libm_version(manifest_dir: &PathBuf) -> String {
    let lock = fs::read_to_string(manifest_dir.join("Cargo.lock")).unwrap_or_default();
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"libm\"" {
            if let Some(v) = lines.next() {
                if let Some(rest) = v.trim().strip_prefix("version = \"") {
                    return rest.trim_end_matches('"').to_string();
                }
            }
        }
    }
    "unknown".to_string()
}

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!(
        "cargo:rustc-env=TP_LIBM_VERSION={}",
        locked_libm_version(&manifest_dir)
    );

    #[cfg(feature = "exhaustive")]
    {
        // TP_MATH_SOURCE swaps in another tp-math.c, e.g. a deliberately
        // broken copy to see the comparison fail.
        // The manifest is generated in a build directory; TP_ENGINE_DIR
        // says where the engine's sources are.
        println!("cargo:rerun-if-env-changed=TP_ENGINE_DIR");
        let engine = PathBuf::from(env::var("TP_ENGINE_DIR").expect("TP_ENGINE_DIR"));
        println!("cargo:rerun-if-env-changed=TP_MATH_SOURCE");
        let source = match env::var_os("TP_MATH_SOURCE") {
            Some(path) => PathBuf::from(path),
            None => engine.join("tp-math.c"),
        };
        println!("cargo:rerun-if-changed={}", source.display());
        println!("cargo:rerun-if-changed={}", engine.join("tp-math.h").display());
        cc::Build::new()
            .file(&source)
            .include(&engine)
            .opt_level(2)
            .flag("-std=c11")
            .flag("-ffp-contract=off")
            .flag("-fno-fast-math")
            .warnings(true)
            .extra_warnings(true)
            .compile("tpmath");
    }
}
