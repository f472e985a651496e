//! SPIR-V for the tests of `clCreateProgramWithIL`, made at test time:
//! OpenCL C through Debian's `clang-15` and `llvm-spirv-15` (the Khronos
//! translator), and SPIR-V assembly through `spirv-as` (for what OpenCL C
//! cannot say, such as specialization constants).

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A path under the temporary directory that no other call, test thread
/// or test process uses.
fn temp_path(extension: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "clvulkan-il-{}-{n}.{extension}",
        std::process::id()
    ))
}

/// Runs `tool` on a temporary `input` file holding `text`, with the
/// arguments `args` (where the input and output paths go, see
/// [`Arg`]), and returns the output file's bytes; panics with the tool's
/// stderr if it fails. Both files are removed.
///
/// With `CLVULKAN_IL_CACHE` naming a folder, outputs are kept there by a
/// hash of the tool, its arguments and its input, and found there again:
/// a machine without the tools (the GPU machine) runs the tests on what
/// another filled it with.
fn run_tool(tool: &str, input: (&str, &[u8]), output: &str, args: &[Arg]) -> Vec<u8> {
    let cache = std::env::var_os("CLVULKAN_IL_CACHE").map(|dir| {
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        let mut feed = |bytes: &[u8]| {
            for &b in bytes {
                hash = (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3);
            }
        };
        feed(tool.as_bytes());
        for arg in args {
            if let Arg::Text(text) = arg {
                feed(text.as_bytes());
            }
            feed(b"\0");
        }
        feed(input.1);
        PathBuf::from(dir).join(format!("{hash:016x}.{output}"))
    });
    if let Some(bytes) = cache.as_ref().and_then(|path| std::fs::read(path).ok()) {
        return bytes;
    }
    let bytes = run_tool_uncached(tool, input, output, args);
    if let Some(path) = cache {
        let _ = std::fs::create_dir_all(path.parent().expect("a folder"));
        let _ = std::fs::write(path, &bytes);
    }
    bytes
}

fn run_tool_uncached(tool: &str, input: (&str, &[u8]), output: &str, args: &[Arg]) -> Vec<u8> {
    let (input_path, output_path) = (temp_path(input.0), temp_path(output));
    std::fs::write(&input_path, input.1).expect("write the tool's input");
    let mut command = Command::new(tool);
    for arg in args {
        match arg {
            Arg::Text(text) => command.arg(text),
            Arg::Input => command.arg(&input_path),
            Arg::Output => command.arg(&output_path),
        };
    }
    let result = command.output();
    let _ = std::fs::remove_file(&input_path);
    let result = result.unwrap_or_else(|e| {
        panic!("{tool} could not run ({e}): scripts/install-deps.sh installs it")
    });
    let bytes = std::fs::read(&output_path);
    let _ = std::fs::remove_file(&output_path);
    assert!(
        result.status.success(),
        "{tool} failed ({}):\n{}",
        result.status,
        String::from_utf8_lossy(&result.stderr)
    );
    bytes.expect("the tool's output")
}

/// A command-line argument of [`run_tool`].
enum Arg {
    Text(String),
    Input,
    Output,
}

fn text(value: &str) -> Arg {
    Arg::Text(value.to_owned())
}

/// `source` compiled to a SPIR-V module for a 64-bit device, in the OpenCL
/// C version `cl_std` ("CL1.2", "CL2.0", "CL3.0"); `defines` are clang
/// arguments such as `-DN=4`. The clang driver already includes the
/// OpenCL built-in declarations (`-finclude-default-header`) for OpenCL
/// input, so none is passed.
pub fn spirv_from_source_with(source: &str, cl_std: &str, defines: &[String]) -> Vec<u8> {
    let mut args = vec![
        text("-c"),
        text("-target"),
        text("spir64"),
        text("-emit-llvm"),
        text("-O0"),
        Arg::Text(format!("-cl-std={cl_std}")),
    ];
    args.extend(defines.iter().map(|d| text(d)));
    args.extend([text("-o"), Arg::Output, Arg::Input]);
    let bitcode = run_tool("clang-15", ("cl", source.as_bytes()), "bc", &args);
    run_tool(
        "llvm-spirv-15",
        ("bc", &bitcode),
        "spv",
        &[
            text(ALLOWED_EXTENSIONS),
            Arg::Input,
            text("-o"),
            Arg::Output,
        ],
    )
}

/// The SPIR-V extensions llvm-spirv may use, only where a kernel needs
/// them: those that built-ins of the extensions clvulkan reports lower to
/// (`sub_group_rotate`, `cl_ext_float_atomics`' add, min and max). Without
/// them llvm-spirv refuses such kernels.
const ALLOWED_EXTENSIONS: &str = "--spirv-ext=+SPV_KHR_subgroup_rotate,\
+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max";

/// [`spirv_from_source_with`] without defines.
pub fn spirv_from_source(source: &str, cl_std: &str) -> Vec<u8> {
    spirv_from_source_with(source, cl_std, &[])
}

/// SPIR-V assembly (`spirv-as` syntax) assembled for SPIR-V 1.0.
pub fn spirv_from_assembly(assembly: &str) -> Vec<u8> {
    run_tool(
        "spirv-as",
        ("spvasm", assembly.as_bytes()),
        "spv",
        &[
            text("--target-env"),
            text("spv1.0"),
            text("-o"),
            Arg::Output,
            Arg::Input,
        ],
    )
}

/// Whether a `.cl` file's build goes through SPIR-V: `CLVULKAN_TEST_IL=1`
/// asks for it (`scripts/test.sh`'s second pass).
pub fn il_mode() -> bool {
    std::env::var("CLVULKAN_TEST_IL").is_ok_and(|v| v == "1")
}
