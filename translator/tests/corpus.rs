//! Every kernel in the shared test corpus (`tests/kernels/*.cl`) compiles,
//! and the SPIR-V written for it passes `spirv-val --target-env vulkan1.2`.

use std::path::PathBuf;
use std::process::Command;
use translator::DeviceCaps;

fn corpus() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no kernels in {}", dir.display());
    files
}

#[test]
fn corpus_compiles_to_valid_spirv() {
    let out_dir = std::env::temp_dir().join(format!("clvulkan-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("temp dir");
    for path in corpus() {
        let source = std::fs::read_to_string(&path).expect("read kernel");
        // A first line `// options: ...` gives the build options.
        let options = source
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// options:"))
            .unwrap_or("")
            .trim();
        let program = translator::build(&source, options, &DeviceCaps::full())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            !program.kernels.is_empty(),
            "{}: no kernels",
            path.display()
        );
        for kernel in &program.kernels {
            for local_size in [[1, 1, 1], [64, 1, 1], [8, 8, 1]] {
                let words = kernel.spirv(local_size, &[16, 16, 16]).expect("spirv");
                let file =
                    out_dir.join(format!("{}-{}.spv", kernel.reflection.name, local_size[0]));
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                std::fs::write(&file, bytes).expect("write spv");
                let status = Command::new("spirv-val")
                    .args(["--target-env", "vulkan1.2", "--scalar-block-layout"])
                    .arg(&file)
                    .output()
                    .expect("spirv-val must be installed (see README)");
                assert!(
                    status.status.success(),
                    "{} ({}): spirv-val failed:\n{}",
                    path.display(),
                    kernel.reflection.name,
                    String::from_utf8_lossy(&status.stderr)
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn reflection_of_saxpy() {
    let source = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels/saxpy.cl"),
    )
    .expect("saxpy.cl");
    let program = translator::build(&source, "", &DeviceCaps::full()).expect("build");
    let k = program.kernel("saxpy").expect("kernel saxpy");
    use translator::reflect::AddressQualifier;
    use translator::ArgKind;
    let args = &k.reflection.args;
    assert_eq!(args.len(), 3);
    assert_eq!(
        args[0].kind,
        ArgKind::Pod {
            offset: 40,
            size: 4
        }
    );
    assert_eq!(args[0].type_name, "float");
    assert_eq!(args[1].kind, ArgKind::Buffer { binding: 0 });
    assert_eq!(args[1].address, AddressQualifier::Global);
    assert!(args[1].is_const);
    assert_eq!(args[1].type_name, "float*");
    assert_eq!(args[2].kind, ArgKind::Buffer { binding: 1 });
    assert!(!args[2].is_const);
    // The header, `a`, and one word of null flags for the two buffers.
    assert_eq!(k.reflection.push_constant_size, 48);
    assert_eq!(k.reflection.null_buffer_flags, Some(44));
    assert_eq!(k.reflection.storage_buffers, 2);
}

/// Words of `OpDecorate %x Aliased` in a module.
fn aliased_count(words: &[u32]) -> usize {
    let mut at = 5;
    let mut count = 0;
    while at < words.len() {
        let n = (words[at] >> 16) as usize;
        if words[at] & 0xffff == 71 && n == 3 && words[at + 2] == 20 {
            count += 1;
        }
        at += n.max(1);
    }
    count
}

#[test]
fn pointer_arguments_that_may_alias_are_decorated_aliased() {
    let caps = DeviceCaps::full();
    let plain = "kernel void k(global float *a, global const float *b) { a[0] = b[0]; }";
    let restricted =
        "kernel void k(global float *restrict a, global const float *restrict b) { a[0] = b[0]; }";
    let words = |source: &str| {
        let program = translator::build(source, "", &caps).expect("build");
        program.kernels[0].spirv([1, 1, 1], &[]).expect("spirv")
    };
    assert_eq!(aliased_count(&words(plain)), 2);
    assert_eq!(aliased_count(&words(restricted)), 0);
}
