//! The on-disk pipeline cache through the loader: kernels built on several
//! threads at once leave one valid cache file, and a later process that
//! starts from that file gets right results.

mod common;

use std::path::Path;
use std::process::Command;

use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;

/// Set in the child processes, which do the OpenCL work.
const CHILD: &str = "CLVULKAN_TEST_PIPELINE_CACHE_CHILD";

const THREADS: i32 = 4;

/// Thread `t`'s kernel: a source of its own, so a pipeline of its own.
fn source(t: i32) -> String {
    format!(
        "kernel void scale{t}(global int *d) {{ d[get_global_id(0)] *= {}; }}\n",
        t + 2
    )
}

/// What the child does: every thread builds and runs its kernel.
#[test]
fn pipeline_cache_child() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let (context, queue) = common::context_and_queue();
    std::thread::scope(|scope| {
        for t in 0..THREADS {
            let (context, queue) = (&context, &queue);
            scope.spawn(move || {
                let program =
                    Program::create_and_build_from_source(context, &source(t), "").expect("build");
                let kernel = Kernel::create(&program, &format!("scale{t}")).expect("kernel");
                let data: Vec<i32> = (0..256).collect();
                let buffer = common::buffer_with(context, queue, &data);
                // SAFETY: the one argument is a live buffer of 256 ints.
                unsafe {
                    ExecuteKernel::new(&kernel)
                        .set_arg(&buffer)
                        .set_global_work_size(data.len())
                        .enqueue_nd_range(queue)
                        .expect("launch");
                }
                let got: Vec<i32> = common::read_buffer(queue, &buffer, data.len());
                let want: Vec<i32> = data.iter().map(|x| x * (t + 2)).collect();
                assert_eq!(got, want, "thread {t}");
            });
        }
    });
}

fn run_child(cache_dir: &Path) {
    let mut child = Command::new(std::env::current_exe().expect("test executable"));
    child
        .args(["--exact", "pipeline_cache_child", "--test-threads=1"])
        .env(CHILD, "1")
        .env("CLVULKAN_CACHE_DIR", cache_dir);
    common::run_checked(&mut child);
}

/// The cache file of the one device, once a process has exited.
fn cache_file(dir: &Path) -> Vec<u8> {
    let files: Vec<_> = std::fs::read_dir(dir)
        .expect("cache directory")
        .map(|entry| entry.expect("entry").path())
        .collect();
    let [file] = files.as_slice() else {
        panic!("one cache file expected in {}: {files:?}", dir.display());
    };
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("pipelines-") && name.ends_with(".bin"),
        "{name}"
    );
    std::fs::read(file).expect("cache file")
}

#[test]
fn pipelines_built_on_several_threads_reach_the_cache_file() {
    let dir = std::env::temp_dir().join(format!("clvulkan-pipeline-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    run_child(&dir);
    let data = cache_file(&dir);
    // VkPipelineCacheHeaderVersionOne: its length, then version 1.
    let word = |i: usize| u32::from_le_bytes(data[4 * i..4 * i + 4].try_into().unwrap());
    assert!(data.len() >= 32 && word(0) >= 32, "{} bytes", data.len());
    assert_eq!(word(1), 1, "header version");
    // A second process starts from the file and must still be right.
    run_child(&dir);
    assert!(cache_file(&dir).len() >= 32);
    let _ = std::fs::remove_dir_all(&dir);
}
