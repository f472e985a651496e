//! `printf` in kernels, through the loader: the output of every work-item
//! reaches the process's stdout by the time `clFinish` returns, formatted
//! as C formats it, `%s` of strings known at compile time and of strings
//! read at run time (string literals held in pointer variables and passed
//! to helpers among them) alike. The launches run in a child process (this test
//! binary again) so that its stdout can be read.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_WRITE_ONLY};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use std::ptr;

const SOURCE: &str = r#"
void report(int i, float f) {
    printf("K: i=%d f=%.2f v=%v4hld s=%-5s| c=%c x=%#x e=%e l=%ld h=%hhd\n",
           i, f * i, (int4)(1, -2, 3, i), "ab", 'A' + i, 255 + i, 1.5f,
           (long)i * 3000000000L, 250 + i);
}
__kernel void k(__global int *status, float f) {
    int i = get_global_id(0);
    report(i, f);
    if (i == 0) {
        printf("K: wide %v8hhd %v16hx\n", (char8)(1, -2, 3, -4, 5, -6, 7, -8),
               (ushort16)(0xa, 0xb, 0xc, 0xd, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xfff, 0xffff));
        status[0] = printf("K: done %u %5.1f%%\n", 7u, 99.5f);
    }
}
"#;

const WORK_ITEMS: usize = 64;
const CHILD: &str = "CLVULKAN_PRINTF_TEST_CHILD";

/// The launch, when this process is the child.
#[test]
fn printf_child() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let platform = get_platforms().expect("platforms").remove(0);
    let ids = platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices");
    let context = Context::from_device(&Device::new(ids[0])).expect("context");
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, 0).expect("queue");
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "k").expect("kernel");
    // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
    let status = unsafe {
        Buffer::<i32>::create(&context, CL_MEM_WRITE_ONLY, 1, ptr::null_mut()).expect("buffer")
    };
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&status)
            .set_arg(&0.5f32)
            .set_global_work_size(WORK_ITEMS)
            .set_local_work_size(16)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    queue.finish().expect("finish");
    let mut result = [1i32];
    // SAFETY: one int, the buffer's size.
    unsafe { queue.enqueue_read_buffer(&status, CL_BLOCKING, 0, &mut result, &[]) }.expect("read");
    println!("K: status {}", result[0]);
}

#[test]
fn printf_output_reaches_stdout_formatted_as_c() {
    let stdout = common::run_child_test("printf_child", CHILD);
    // libtest's "test printf_child ... " may precede the first line.
    let mut got: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.find("K: ").map(|at| &l[at..]))
        .collect();
    got.sort_unstable();
    let mut expected: Vec<String> = (0..WORK_ITEMS as i64)
        .map(|i| {
            format!(
                "K: i={i} f={:.2} v=1,-2,3,{i} s=ab   | c={} x={:#x} e=1.500000e+00 l={} h={}",
                0.5f32 * i as f32,
                char::from(b'A' + i as u8),
                255 + i,
                i * 3_000_000_000,
                (250 + i) as i8
            )
        })
        .chain([
            "K: done 7  99.5%".to_owned(),
            "K: status 0".to_owned(),
            "K: wide 1,-2,3,-4,5,-6,7,-8 a,b,c,d,0,1,2,3,4,5,6,7,8,9,fff,ffff".to_owned(),
        ])
        .collect();
    expected.sort_unstable();
    assert_eq!(got, expected);
}

const STRINGS_SOURCE: &str = r#"
__constant char greeting[] = "hello";
__constant char names[3][6] = {"zero", "one", "two"};
void tag(__constant char *name, int i) {
    printf("S: tag %s %d\n", name, i);
}
__kernel void strings(__global const char *text, __constant char *label,
                      __global const char *long_text) {
    int i = get_global_id(0);
    __constant char *literal = "abc";
    __constant char *parity = (i & 1) ? "odd" : "even";
    printf("S: vars %s %s %c %d\n", literal, parity, literal[i % 3], i);
    tag(parity, i);
    tag("fixed", i);
    char word[8] = "w";
    word[1] = 'a' + i;
    __constant char kmsg[] = { "kmsg" };
    __global const char *tail = (i & 1) ? text : text + 3;
    printf("S: %d %s %s %s %s|%5s|%-6s|%.3s|%s|%s|%s\n", i, greeting,
           (i & 2) ? "yes" : "no", names[i % 3], word, label, kmsg, tail,
           i > 4 ? word : word + 1, (__global const char *)0 + 0, "lit");
    if (i == 0)
        printf("S: long %s end\n", long_text);
}
"#;

const STRING_ITEMS: usize = 8;
/// Longer than the most `%s` prints of a string read at run time.
const LONG_TEXT: usize = 1100;
const STRINGS_CHILD: &str = "CLVULKAN_PRINTF_STRINGS_CHILD";

/// The `%s` launch, when this process is the child.
#[test]
fn printf_strings_child() {
    if std::env::var_os(STRINGS_CHILD).is_none() {
        return;
    }
    let (context, queue) = common::context_and_queue();
    let program = Program::create_and_build_from_source(&context, STRINGS_SOURCE, "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"));
    let kernel = Kernel::create(&program, "strings").expect("kernel");
    let text = common::buffer_with(&context, &queue, b"abcdefgh\0");
    let label = common::buffer_with(&context, &queue, b"LBL\0");
    let mut long = vec![b'x'; LONG_TEXT];
    long.push(0);
    let long = common::buffer_with(&context, &queue, &long);
    // SAFETY: the arguments match the kernel's parameters.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&text)
            .set_arg(&label)
            .set_arg(&long)
            .set_global_work_size(STRING_ITEMS)
            .enqueue_nd_range(&queue)
            .expect("launch");
    }
    queue.finish().expect("finish");
}

#[test]
fn printf_of_strings_known_and_read_at_run_time() {
    let stdout = common::run_child_test("printf_strings_child", STRINGS_CHILD);
    let mut got: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.find("S: ").map(|at| &l[at..]))
        .collect();
    got.sort_unstable();
    let names = ["zero", "one", "two"];
    let mut expected: Vec<String> = (0..STRING_ITEMS)
        .map(|i| {
            let letter = char::from(b'a' + i as u8);
            let choice = if i > 4 {
                format!("w{letter}")
            } else {
                letter.to_string()
            };
            format!(
                "S: {i} hello {} {} w{letter}|  LBL|kmsg  |{}|{choice}||lit",
                if i & 2 != 0 { "yes" } else { "no" },
                names[i % 3],
                if i & 1 != 0 { "abc" } else { "def" },
            )
        })
        .chain((0..STRING_ITEMS).flat_map(|i| {
            let parity = if i & 1 != 0 { "odd" } else { "even" };
            [
                format!("S: vars abc {parity} {} {i}", ['a', 'b', 'c'][i % 3]),
                format!("S: tag {parity} {i}"),
                format!("S: tag fixed {i}"),
            ]
        }))
        .chain([format!(
            "S: long {} end",
            "x".repeat(translator::printf::MAX_STRING_BYTES as usize)
        )])
        .collect();
    expected.sort_unstable();
    assert_eq!(got, expected);
}
