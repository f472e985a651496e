//! `clvulkan`: the command-line companion of the ICD.
//!
//! - `clvulkan info` lists the Vulkan devices, what they offer OpenCL, and
//!   why any of them cannot be used;
//! - `clvulkan compile FILE.cl [-o OUT.spv] [--local-size X,Y,Z] [-E]
//!   [-fsyntax-only] [build options]` is the offline compiler: diagnostics on stderr, SPIR-V
//!   per kernel, reflection on stdout;
//! - `clvulkan run -- APP ARGS...` runs an OpenCL application with the ICD
//!   loader pointed at clvulkan alone;
//! - `clvulkan install [--prefix DIR] [--icd-dir DIR]` and `clvulkan
//!   uninstall` register a source build with the loaders (see [`install`]).

mod install;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage:
  clvulkan info
  clvulkan compile FILE.cl [-o OUT.spv] [--local-size X,Y,Z] [-E | -fsyntax-only] [build options...]
  clvulkan run -- APP [ARGS...]
  clvulkan install [--prefix DIR] [--icd-dir DIR]
  clvulkan uninstall [--prefix DIR] [--icd-dir DIR]";

fn main() -> ExitCode {
    // CLVULKAN_LOG applies to what the runtime reports here too.
    layer::logging::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("info") => info(),
        Some("compile") => compile(&args[1..]),
        Some("run") => run(&args[1..]),
        Some("install") => install_here(&args[1..]),
        Some("uninstall") => install::uninstall(&args[1..]).map_err(|e| format!("clvulkan: {e}")),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn info() -> Result<(), String> {
    let instance = layer::vulkan::instance().map_err(|e| format!("clvulkan: no Vulkan: {e}"))?;
    let devices = instance.physical_devices();
    if devices.is_empty() {
        return Err("clvulkan: Vulkan found no physical devices".into());
    }
    for (i, d) in devices.iter().enumerate() {
        let api = d.api_version;
        println!("device {i}: {}", d.name);
        println!(
            "  type {:?}, Vulkan {}.{}.{}, driver {} ({})",
            d.device_type,
            layer::vulkan::vk::api_version_major(api),
            layer::vulkan::vk::api_version_minor(api),
            layer::vulkan::vk::api_version_patch(api),
            d.driver_name,
            d.driver_info
        );
        match &d.unusable_reason {
            None => println!("  usable by clvulkan: yes"),
            Some(why) => println!("  usable by clvulkan: no ({why})"),
        }
        let f = &d.features;
        let yes = |b: bool| if b { "yes" } else { "no" };
        println!(
            "  int64 {}  int16 {}  int8 {}  fp64 {}  fp16 {}  16-bit storage {}  8-bit storage {}",
            yes(f.shader_int64),
            yes(f.shader_int16),
            yes(f.shader_int8),
            yes(f.shader_float64),
            yes(f.shader_float16),
            yes(f.storage_buffer_16bit),
            yes(f.storage_buffer_8bit)
        );
        println!(
            "  scalar block layout {}  timeline semaphores {}  memory model {}  int64 atomics {}  push descriptors {}",
            yes(f.scalar_block_layout),
            yes(f.timeline_semaphore),
            yes(f.vulkan_memory_model),
            yes(f.shader_buffer_int64_atomics),
            yes(f.push_descriptor)
        );
        let l = &d.limits;
        println!(
            "  device-local memory {} MiB, max allocation {} MiB, storage buffer range {} MiB",
            d.device_local_heap_size >> 20,
            d.max_memory_allocation_size >> 20,
            u64::from(l.max_storage_buffer_range) >> 20
        );
        println!(
            "  work-group size {:?} (at most {} items), shared memory {} KiB, push constants {} B, subgroup {}",
            l.max_compute_work_group_size,
            l.max_compute_work_group_invocations,
            l.max_compute_shared_memory_size >> 10,
            l.max_push_constants_size,
            d.subgroup_size
        );
    }
    Ok(())
}

fn compile(args: &[String]) -> Result<(), String> {
    let mut input = None;
    let mut output = None;
    let mut local_size = None;
    let mut preprocess_only = false;
    let mut check_only = false;
    let mut build_options = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-o" => output = Some(PathBuf::from(it.next().ok_or("-o needs a file name")?)),
            "--local-size" => {
                let spec = it.next().ok_or("--local-size needs X,Y,Z")?;
                local_size = Some(parse_local_size(spec)?);
            }
            "-E" => preprocess_only = true,
            "-fsyntax-only" => check_only = true,
            a if input.is_none() && (a.ends_with(".cl") || a.ends_with(".spv")) => {
                input = Some(PathBuf::from(a))
            }
            a => build_options.push(a.to_string()),
        }
    }
    let input = input.ok_or_else(|| format!("no input file\n{USAGE}"))?;
    let caps = translator::DeviceCaps::full();
    if input.extension().is_some_and(|e| e == "spv") {
        // A SPIR-V module (clCreateProgramWithIL's input).
        let bytes = std::fs::read(&input).map_err(|e| format!("{}: {e}", input.display()))?;
        let module = translator::il::IlModule::parse(&bytes)
            .map_err(|e| format!("{}: {e}", input.display()))?;
        let program = translator::Session::new()
            .build_il(
                &[(&module, &Default::default())],
                &build_options.join(" "),
                &caps,
            )
            .map_err(|e| e.to_string())?;
        return write_kernels(&program, &input, output.as_ref(), local_size);
    }
    let source =
        std::fs::read_to_string(&input).map_err(|e| format!("{}: {e}", input.display()))?;
    let options = translator::BuildOptions::parse(&build_options.join(" "))
        .map_err(|e| format!("invalid build options: {e}"))?;
    if check_only {
        let log = translator::check_source(&source, &build_options.join(" "), &caps)
            .map_err(|e| e.to_string())?;
        eprint!("{log}");
        return Ok(());
    }
    if preprocess_only {
        let (text, log) = translator::preprocess_to_string(&source, &options, &caps);
        eprint!("{log}");
        print!("{text}");
        return Ok(());
    }
    let name = input.display().to_string();
    let program =
        translator::build_named(&name, &source, &options, &caps).map_err(|e| e.to_string())?;
    write_kernels(&program, &input, output.as_ref(), local_size)
}

/// Writes each kernel's SPIR-V beside `input` (or to `output`) and says
/// what its interface is.
fn write_kernels(
    program: &translator::Program,
    input: &std::path::Path,
    output: Option<&PathBuf>,
    local_size: Option<[u32; 3]>,
) -> Result<(), String> {
    eprint!("{}", program.log);
    let stem = input
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("kernel");
    for kernel in &program.kernels {
        let r = &kernel.reflection;
        let size = local_size
            .or(r.required_work_group_size)
            .unwrap_or([1, 1, 1]);
        let local_lengths = vec![16; local_arg_count(r)];
        let words = kernel
            .spirv(size, &local_lengths)
            .map_err(|e| e.to_string())?;
        let path = match (output, program.kernels.len()) {
            (Some(p), 1) => p.clone(),
            (Some(p), _) => sibling(p, &format!("{}.spv", r.name)),
            (None, _) => PathBuf::from(format!("{stem}.{}.spv", r.name)),
        };
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        println!(
            "kernel {} -> {} (local size {size:?})",
            r.name,
            path.display()
        );
        println!(
            "  push constants {} bytes, storage buffers {}",
            r.push_constant_size, r.storage_buffers
        );
        if !r.attributes.is_empty() {
            println!("  attributes: {}", r.attributes);
        }
        for (i, a) in r.args.iter().enumerate() {
            println!(
                "  arg {i}: {} {} ({:?}{}{}) -> {:?}",
                a.type_name,
                a.name,
                a.address,
                if a.is_const { ", const" } else { "" },
                if a.is_restrict { ", restrict" } else { "" },
                a.kind
            );
        }
    }
    Ok(())
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("out");
    path.with_file_name(format!("{stem}.{suffix}"))
}

fn parse_local_size(spec: &str) -> Result<[u32; 3], String> {
    let mut size = [1u32; 3];
    let parts: Vec<&str> = spec.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("bad --local-size '{spec}'"));
    }
    for (slot, p) in size.iter_mut().zip(parts) {
        *slot = p
            .trim()
            .parse()
            .ok()
            .filter(|&v: &u32| v > 0)
            .ok_or_else(|| format!("bad --local-size '{spec}'"))?;
    }
    Ok(size)
}

/// The ICD library: `CLVULKAN_LIBRARY`, or `libclvulkan.so` beside this
/// executable (both live in cargo's target directory), or in `../lib`
/// from it (an install, see [`install`]).
fn icd_library() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("CLVULKAN_LIBRARY") {
        return Ok(PathBuf::from(p));
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let beside = exe.with_file_name(install::LIBRARY);
    let installed = exe
        .parent()
        .and_then(Path::parent)
        .map(|prefix| prefix.join("lib").join(install::LIBRARY));
    [Some(beside.clone()), installed]
        .into_iter()
        .flatten()
        .find(|lib| lib.exists())
        .ok_or_else(|| {
            format!(
                "{} not found: build it with `cargo build -p clvulkan-layer` or set CLVULKAN_LIBRARY",
                beside.display()
            )
        })
}

/// `clvulkan install`: this program and the library [`icd_library`] finds.
fn install_here(args: &[String]) -> Result<(), String> {
    let library = icd_library()?;
    let program = std::env::current_exe().map_err(|e| e.to_string())?;
    install::install(args, &library, &program).map_err(|e| format!("clvulkan: {e}"))
}

fn run(args: &[String]) -> Result<(), String> {
    let args = match args.first().map(String::as_str) {
        Some("--") => &args[1..],
        _ => args,
    };
    let (app, rest) = args.split_first().ok_or_else(|| USAGE.to_string())?;
    let lib = icd_library()?;
    // ocl-icd reads OCL_ICD_VENDORS (a file names one ICD); the Khronos
    // loader reads OCL_ICD_FILENAMES. Setting both selects clvulkan alone.
    let status = std::process::Command::new(app)
        .args(rest)
        .env("OCL_ICD_VENDORS", &lib)
        .env("OCL_ICD_FILENAMES", &lib)
        .status()
        .map_err(|e| format!("{app}: {e}"))?;
    match status.code() {
        Some(0) => Ok(()),
        Some(code) => Err(format!("{app} exited with status {code}")),
        None => Err(format!("{app} was killed by a signal")),
    }
}

/// How many `__local` pointer arguments a kernel has (the offline compiler
/// gives each a nominal length, since real ones are set at enqueue).
fn local_arg_count(r: &translator::KernelReflection) -> usize {
    r.args
        .iter()
        .filter(|a| matches!(a.kind, translator::ArgKind::Local { .. }))
        .count()
}
