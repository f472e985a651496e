//! Structs with `char`/`short` members and unions end to end
//! (`tests/kernels/records.cl`): the host declares the same types with
//! `#[repr(C)]`, fills buffers and by-value arguments with them, and checks
//! what the kernels wrote against a host computation. The device must use
//! the host's bytes (layout, union punning) and must not lose writes of
//! neighbouring work-items to narrow members that share a 32-bit word.

mod common;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use std::mem::{offset_of, size_of};
use std::ptr;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Item {
    x: f32,
    flags: u8,
    id: i16,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Tiny {
    a: u8,
    b: u8,
    c: i8,
}

#[repr(C)]
#[derive(Clone, Copy)]
union Pun {
    f: f32,
    u: u32,
    b: [u8; 4],
}

#[repr(C)]
#[derive(Clone, Copy)]
struct Tagged {
    tag: i8,
    value: Pun,
    count: u16,
}

#[repr(C)]
#[derive(Clone, Copy)]
union Wrapped {
    item: Item,
    words: [u32; 2],
    bytes: [u8; 4],
}

/// `uchar4` and `uchar3`: four bytes aligned to four.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct UChar4([u8; 4]);

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Mixed {
    c: i8,
    l: i64,
    /// `uchar3`, which takes the room of four.
    v: UChar4,
    s: [i16; 3],
}

#[repr(C)]
#[derive(Clone, Copy)]
union Wide {
    l: u64,
    w: [u32; 2],
    h: [u16; 4],
}

/// The bytes of a plain-data value (every type here has no pointers, and
/// every byte of them is initialised: buffers are made from byte arrays).
fn bytes_of<T: Copy>(v: &T) -> Vec<u8> {
    // SAFETY: `v` is a valid reference to `size_of::<T>()` bytes; the types
    // read through this are repr(C) plain data made from initialised bytes.
    unsafe { std::slice::from_raw_parts((v as *const T).cast::<u8>(), size_of::<T>()) }.to_vec()
}

/// A value of `T` from bytes.
fn from_bytes<T: Copy>(bytes: &[u8]) -> T {
    assert_eq!(bytes.len(), size_of::<T>());
    // SAFETY: exactly `size_of::<T>()` bytes, read unaligned; every bit
    // pattern is valid for these integer/float plain-data types.
    unsafe { ptr::read_unaligned(bytes.as_ptr().cast::<T>()) }
}

/// splitmix64: deterministic pseudo-random inputs.
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Pseudo-random bytes for `n` values of `T` (every byte initialised, so
/// padding and union bytes are defined too).
fn random<T: Copy>(n: usize, seed: u64) -> Vec<T> {
    (0..n)
        .map(|i| {
            let bytes: Vec<u8> = (0..size_of::<T>())
                .map(|k| mix(seed ^ ((i * 64 + k) as u64)) as u8)
                .collect();
            from_bytes(&bytes)
        })
        .collect()
}

fn random_items(n: usize, seed: u64) -> Vec<Item> {
    (0..n)
        .map(|i| {
            let r = mix(seed + i as u64);
            Item {
                // Multiples of 1/8: doubling is exact.
                x: ((r % 4096) as f32 - 2048.0) / 8.0,
                flags: (r >> 16) as u8,
                id: (r >> 32) as i16,
            }
        })
        .collect()
}

struct Cl {
    context: Context,
    queue: CommandQueue,
    program: Program,
}

fn setup() -> Cl {
    for (k, v) in common::opencl_env() {
        // SAFETY: tests in this binary only ever set these same values.
        unsafe { std::env::set_var(k, v) };
    }
    let platforms = get_platforms().expect("platforms");
    let ids = platforms[0]
        .get_devices(CL_DEVICE_TYPE_ALL)
        .expect("devices");
    let device = Device::new(ids[0]);
    let context = Context::from_device(&device).expect("context");
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, 0).expect("queue");
    let source =
        std::fs::read_to_string(common::repo_path("tests/kernels/records.cl")).expect("source");
    let program = common::launch::build_source(&context, &source, "");
    Cl {
        context,
        queue,
        program,
    }
}

impl Cl {
    /// A read-write buffer holding `data`.
    fn buffer<T: Copy>(&self, data: &[T]) -> Buffer<T> {
        // SAFETY: a null host pointer with no USE/COPY_HOST_PTR flag.
        let mut b = unsafe {
            Buffer::<T>::create(
                &self.context,
                CL_MEM_READ_WRITE,
                data.len(),
                ptr::null_mut(),
            )
        }
        .expect("create buffer");
        // SAFETY: blocking, so `data` outlives the transfer.
        unsafe {
            self.queue
                .enqueue_write_buffer(&mut b, CL_BLOCKING, 0, data, &[])
        }
        .expect("write");
        b
    }

    fn read<T: Copy>(&self, buffer: &Buffer<T>, like: &[T]) -> Vec<T> {
        let mut out = like.to_vec();
        // SAFETY: blocking, so `out` outlives the transfer.
        unsafe {
            self.queue
                .enqueue_read_buffer(buffer, CL_BLOCKING, 0, &mut out, &[])
        }
        .expect("read");
        out
    }

    fn kernel(&self, name: &str) -> Kernel {
        Kernel::create(&self.program, name).unwrap_or_else(|e| panic!("{name}: {e}"))
    }
}

fn run(cl: &Cl, exec: &mut ExecuteKernel, global: usize, local: Option<usize>) {
    exec.set_global_work_size(global);
    if let Some(l) = local {
        exec.set_local_work_size(l);
    }
    // SAFETY: every kernel's arguments were set as it declares them.
    unsafe { exec.enqueue_nd_range(&cl.queue) }.expect("enqueue");
    cl.queue.finish().expect("finish");
}

#[test]
fn whole_structs_read_modify_write_through_a_helper() {
    let cl = setup();
    let n = 4096;
    let items = random_items(n, 1);
    let buf = cl.buffer(&items);
    let kernel = cl.kernel("update_items");
    // SAFETY: one buffer of Item, as declared.
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&buf) },
        n,
        None,
    );
    let got = cl.read(&buf, &items);
    for (i, (g, it)) in got.iter().zip(&items).enumerate() {
        let k = (i & 7) as u8;
        let want = Item {
            x: it.x * 2.0,
            flags: it.flags.wrapping_add(k),
            id: it.id.wrapping_sub(i16::from(k)),
        };
        assert_eq!(*g, want, "item {i}");
    }
}

#[test]
fn neighbouring_narrow_members_keep_every_write() {
    let cl = setup();
    let n = 1 << 16;
    let items = random_items(n / 2, 2);
    let tiny: Vec<Tiny> = random(n, 3);
    let (ib, tb) = (cl.buffer(&items), cl.buffer(&tiny));
    let kernel = cl.kernel("neighbours");
    // SAFETY: buffers of Item and Tiny, as declared.
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&ib).set_arg(&tb) },
        n,
        None,
    );
    let got = cl.read(&ib, &items);
    for (j, (g, it)) in got.iter().zip(&items).enumerate() {
        let (even, odd) = (2 * j as u32, 2 * j as u32 + 1);
        let want = Item {
            x: it.x,
            flags: even.wrapping_mul(7) as u8,
            id: (odd as i32).wrapping_neg() as i16,
        };
        assert_eq!(*g, want, "item {j}");
    }
    let got = cl.read(&tb, &tiny);
    for (i, (g, t)) in got.iter().zip(&tiny).enumerate() {
        let want = Tiny {
            a: t.a,
            b: (i as u32 + 3) as u8,
            c: (i32::from(t.a) - 100) as i8,
        };
        assert_eq!(*g, want, "tiny {i}");
    }
}

#[test]
fn structs_with_char_members_by_value() {
    let cl = setup();
    let n = 256;
    let t = Tiny {
        a: 3,
        b: 250,
        c: -7,
    };
    let base = Item {
        x: 1.5,
        flags: 9,
        id: -300,
    };
    let m = Mixed {
        c: -2,
        l: 0x1234_5678_9abc_fff0,
        v: UChar4([1, 2, 200, 0]),
        s: [5, 6, -1000],
    };
    let out = cl.buffer(&vec![Item::default(); n]);
    let kernel = cl.kernel("by_value");
    // SAFETY: a buffer of Item, then Tiny, Item and Mixed by value (repr(C)
    // as the kernel's types).
    run(
        &cl,
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&out)
                .set_arg(&t)
                .set_arg(&base)
                .set_arg(&m)
        },
        n,
        None,
    );
    let got = cl.read(&out, &vec![Item::default(); n]);
    for (i, g) in got.iter().enumerate() {
        let id = i32::from(t.c)
            + i32::from(base.id)
            + i32::from(m.s[2])
            + i32::from(m.c)
            + i32::from(m.l as i16)
            + i32::from(m.v.0[2]);
        let want = Item {
            x: base.x * f32::from(t.a) + i as f32,
            flags: t.b.wrapping_add(base.flags),
            id: id as i16,
        };
        assert_eq!(*g, want, "work-item {i}");
    }
}

#[test]
fn union_puns_float_uint_and_bytes() {
    let cl = setup();
    let n = 1024;
    let input: Vec<f32> = (0..n)
        .map(|i| f32::from_bits(mix(i as u64) as u32 & 0xbfff_ffff))
        .collect();
    let din = cl.buffer(&input);
    let bits = cl.buffer(&vec![0u32; n]);
    let bytes = cl.buffer(&vec![[0u8; 4]; n]);
    let negated = cl.buffer(&vec![0f32; n]);
    let kernel = cl.kernel("pun");
    // SAFETY: float, uint, uchar4 and float buffers, as declared.
    run(
        &cl,
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&din)
                .set_arg(&bits)
                .set_arg(&bytes)
                .set_arg(&negated)
        },
        n,
        None,
    );
    let got_bits = cl.read(&bits, &vec![0u32; n]);
    let got_bytes = cl.read(&bytes, &vec![[0u8; 4]; n]);
    let got_negated = cl.read(&negated, &vec![0f32; n]);
    for i in 0..n {
        let p = Pun { f: input[i] };
        // SAFETY: every member of Pun is plain data of the same 4 bytes.
        let (u, b) = unsafe { (p.u, p.b) };
        assert_eq!(got_bits[i], u, "bits of {}", input[i]);
        assert_eq!(got_bytes[i], b, "bytes of {}", input[i]);
        assert_eq!(
            got_negated[i].to_bits(),
            u ^ 0x8000_0000,
            "sign flipped through a byte of {}",
            input[i]
        );
    }
}

#[test]
fn unions_in_structs_and_structs_in_unions() {
    let cl = setup();
    let n = 512;
    let tagged: Vec<Tagged> = random(n, 4);
    let wrapped: Vec<Wrapped> = random(n, 5);
    let wide: Vec<Wide> = random(n, 6);
    let (tb, wb, db) = (cl.buffer(&tagged), cl.buffer(&wrapped), cl.buffer(&wide));
    let kernel = cl.kernel("nested");
    // SAFETY: buffers of Tagged, Wrapped and Wide, as declared.
    run(
        &cl,
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&tb)
                .set_arg(&wb)
                .set_arg(&db)
        },
        n,
        None,
    );
    let got_tagged = cl.read(&tb, &tagged);
    let got_wrapped = cl.read(&wb, &wrapped);
    let got_wide = cl.read(&db, &wide);
    for i in 0..n {
        // SAFETY (all three blocks): the unions' members are plain data
        // sharing initialised bytes.
        let (tag, u, count) = unsafe {
            let t = tagged[i];
            let u = t.value.u.wrapping_add(i as u32);
            (
                t.tag.wrapping_add(1),
                u,
                t.count.wrapping_add(u16::from(u as u8)),
            )
        };
        let g = got_tagged[i];
        // SAFETY: as above.
        let got = unsafe { (g.tag, g.value.u, g.count) };
        assert_eq!(got, (tag, u, count), "tagged {i}");

        let mut w = bytes_of(&wrapped[i]);
        w[4] = w[0];
        w[6] ^= 1;
        w[0] = w[3];
        let got_w = bytes_of(&got_wrapped[i]);
        assert_eq!(got_w, w, "wrapped {i}");

        // SAFETY: as above.
        let want = unsafe {
            let mut d = wide[i];
            d.h[1] = (d.w[1] >> 16) as u16;
            d.l = d.l.wrapping_add((i as u64) << 32);
            d.l
        };
        // SAFETY: as above.
        assert_eq!(unsafe { got_wide[i].l }, want, "wide {i}");
    }
}

#[test]
fn local_arrays_of_structs_with_narrow_members() {
    let cl = setup();
    let n = 64 * 16;
    let items = random_items(n, 7);
    let (input, out) = (cl.buffer(&items), cl.buffer(&vec![Item::default(); n]));
    let kernel = cl.kernel("local_items");
    // SAFETY: two buffers of Item, as declared.
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&input).set_arg(&out) },
        n,
        Some(64),
    );
    let got = cl.read(&out, &items);
    for (i, g) in got.iter().enumerate() {
        let l = i % 64;
        let src = items[i - l + (l + 1) % 64];
        let want = Item {
            x: src.x,
            flags: src.flags.wrapping_add(1),
            id: src.id.wrapping_add(l as i16),
        };
        assert_eq!(*g, want, "work-item {i}");
    }
}

#[test]
fn private_arrays_of_small_structs() {
    let cl = setup();
    let n = 300;
    let out = cl.buffer(&vec![0u32; n]);
    let kernel = cl.kernel("private_items");
    // SAFETY: one uint buffer, as declared.
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&out) },
        n,
        None,
    );
    let got = cl.read(&out, &vec![0u32; n]);
    for (i, g) in got.iter().enumerate() {
        let i = i as u32;
        let mut sum = 0u32;
        for k in 0..5u32 {
            let a = (i + k) as u8;
            let mut b = i.wrapping_mul(k) as u8;
            if k == 2 {
                b = b.wrapping_add(1);
            }
            let c = (k as i32).wrapping_neg() as i8;
            sum = sum
                .wrapping_add(u32::from(a) * 1000)
                .wrapping_add(u32::from(b) * 10)
                .wrapping_add(i32::from(c) as u32);
        }
        assert_eq!(
            *g,
            sum.wrapping_add(u32::from((i + 4) as u8)),
            "work-item {i}"
        );
    }
}

#[test]
fn sizes_and_offsets_match_the_host() {
    let cl = setup();
    let out = cl.buffer(&[0u32; 12]);
    let kernel = cl.kernel("layout");
    // SAFETY: one uint buffer, as declared.
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&out) },
        1,
        None,
    );
    let got = cl.read(&out, &[0u32; 12]);
    let want = [
        size_of::<Item>(),
        size_of::<Tiny>(),
        size_of::<Pun>(),
        size_of::<Tagged>(),
        size_of::<Wrapped>(),
        size_of::<Mixed>(),
        size_of::<Wide>(),
        offset_of!(Item, flags),
        offset_of!(Item, id),
        offset_of!(Mixed, l),
        offset_of!(Mixed, v),
        offset_of!(Mixed, s) + 2,
    ]
    .map(|v| v as u32);
    assert_eq!(got, want);
}

#[test]
fn initializer_lists_of_unions_and_narrow_members() {
    let cl = setup();
    let out = cl.buffer(&[0u32; 3]);
    let kernel = cl.kernel("init_lists");
    // SAFETY: one uint buffer, as declared.
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&out) },
        1,
        None,
    );
    let got = cl.read(&out, &[0u32; 3]);
    let want = [
        1.0f32.to_bits(),
        (-3i32 + 4 * 100 + 7 * 10000) as u32,
        200u32.wrapping_add((-2i32 << 16) as u32),
    ];
    assert_eq!(got, want);
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Inner {
    c: i8,
    s: i16,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Deep {
    /// `bool`: any non-zero byte is true.
    ok: u8,
    v: UChar4,
    inner: [Inner; 3],
}

#[test]
fn vector_members_nested_arrays_and_bools() {
    let cl = setup();
    let n = 1024;
    let k = 2usize;
    let mut d: Vec<Deep> = random(n, 8);
    if common::il::il_mode() {
        // clang reads a `bool` as its low bit (it stores only 0 and 1), so
        // through SPIR-V only those bytes are bools.
        d.iter_mut().for_each(|x| x.ok &= 1);
    }
    let out_init: Vec<Deep> = random(n, 9);
    let (db, ob) = (cl.buffer(&d), cl.buffer(&out_init));
    let kernel = cl.kernel("deep");
    let k_arg = k as i32;
    // SAFETY: two buffers of Deep and an int, as declared.
    run(
        &cl,
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&db)
                .set_arg(&ob)
                .set_arg(&k_arg)
        },
        n,
        None,
    );
    let got_d = cl.read(&db, &d);
    let got_out = cl.read(&ob, &out_init);
    let mut want_out = out_init.clone();
    for i in 0..n {
        let mut w = d[i];
        let v = w.v.0;
        w.v = UChar4([v[3], v[2], v[2], v[3]]);
        w.v.0[k] = 7;
        w.inner[k].c = w.inner[2 - k].s as i8;
        w.ok = u8::from(w.ok == 0);
        // Byte 1 of an element is padding (after `ok`), and so are bytes
        // 1 of each `inner` element: compare members.
        assert_eq!(
            (got_d[i].ok, got_d[i].v, got_d[i].inner),
            (w.ok, w.v, w.inner),
            "d[{i}]"
        );
        let mut moved = w.inner[1];
        moved.s = moved.s.wrapping_add(1);
        want_out[i ^ 1].inner[0] = moved;
    }
    for i in 0..n {
        assert_eq!(
            (got_out[i].ok, got_out[i].v, got_out[i].inner),
            (want_out[i].ok, want_out[i].v, want_out[i].inner),
            "out[{i}]"
        );
    }
}

#[test]
fn byte_views_and_pointers_into_struct_buffers() {
    let cl = setup();
    let n = 256;
    let items = random_items(n, 10);
    let buf = cl.buffer(&items);
    let kernel = cl.kernel("casts");
    // SAFETY: one buffer of Item, as declared.
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&buf) },
        n,
        None,
    );
    let got = cl.read(&buf, &items);
    for (i, (g, it)) in got.iter().zip(&items).enumerate() {
        let mut want = *it;
        want.flags = if i == 1 { 3 } else { (i + 1) as u8 };
        if i == 1 {
            want.id = 4;
        }
        if i == 2 {
            want.x = -1.0;
        }
        assert_eq!(*g, want, "item {i}");
    }
}

#[test]
fn constant_tables_of_narrow_structs_and_unions() {
    let cl = setup();
    let n = 9;
    let (out, words) = (cl.buffer(&vec![Item::default(); n]), cl.buffer(&[0u32; 3]));
    let kernel = cl.kernel("constant_tables");
    // SAFETY: a buffer of Item and a uint buffer, as declared.
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&out).set_arg(&words) },
        n,
        None,
    );
    let table = [
        Item {
            x: 1.5,
            flags: 10,
            id: -1,
        },
        Item {
            x: 0.0,
            flags: 255,
            id: 300,
        },
        Item {
            x: -2.0,
            flags: 7,
            id: i16::MIN,
        },
    ];
    let got = cl.read(&out, &vec![Item::default(); n]);
    for (i, g) in got.iter().enumerate() {
        assert_eq!(*g, table[i % 3], "work-item {i}");
    }
    let got = cl.read(&words, &[0u32; 3]);
    assert_eq!(
        got,
        [
            1.0f32.to_bits(),
            u32::from_le_bytes([1, 2, 3, 4]),
            u32::from(b'x') + 65535
        ]
    );
}

#[test]
fn local_pointer_arguments_to_narrow_structs() {
    let cl = setup();
    let (n, group) = (32 * 8, 32);
    let input: Vec<Tiny> = random(n, 11);
    let (ib, ob) = (cl.buffer(&input), cl.buffer(&vec![Tiny::default(); n]));
    let kernel = cl.kernel("local_arg");
    // SAFETY: two buffers of Tiny and a __local array of `group` of them.
    run(
        &cl,
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&ib)
                .set_arg(&ob)
                .set_arg_local_buffer(group * size_of::<Tiny>())
        },
        n,
        Some(group),
    );
    let got = cl.read(&ob, &vec![Tiny::default(); n]);
    for (i, g) in got.iter().enumerate() {
        let (base, l) = (i - i % group, i % group);
        let mut t = input[base + group - 1 - l];
        t.c ^= 0x55;
        t.a = t.a.wrapping_add(input[i].b);
        assert_eq!(*g, t, "work-item {i}");
    }
}

#[test]
fn private_record_arrays_in_helpers_are_their_own() {
    let cl = setup();
    let n = 64;
    let out = cl.buffer(&vec![0f32; n]);
    let kernel = cl.kernel("scopes");
    // SAFETY: one float buffer, as declared.
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&out) },
        n,
        None,
    );
    let got = cl.read(&out, &vec![0f32; n]);
    for (i, g) in got.iter().enumerate() {
        let s: u32 = (0..3).map(|k| u32::from((i as u32 + k) as u8)).sum::<u32>() + 1 + 2;
        assert_eq!(*g, (s + 1) as f32 + (s + 3) as f32, "work-item {i}");
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Plain {
    x: f32,
    y: f32,
    n: [i32; 2],
}

#[repr(C, align(16))]
#[derive(Clone, Copy)]
union Quad {
    v: [f32; 4],
    p: Plain,
    u: [u32; 4],
}

#[test]
fn plain_structs_in_unions_and_choices_between_unions() {
    let cl = setup();
    let n = 256;
    let quads: Vec<Quad> = (0..n)
        .map(|i| Quad {
            p: Plain {
                x: (i % 100) as f32 * 0.5,
                y: -(i as f32),
                n: [mix(i as u64) as i32, 7],
            },
        })
        .collect();
    let mixed: Vec<Mixed> = random(n, 12);
    let (qb, mb) = (cl.buffer(&quads), cl.buffer(&mixed));
    let kernel = cl.kernel("plain_in_union");
    // SAFETY: buffers of Quad and Mixed, as declared.
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&qb).set_arg(&mb) },
        n,
        None,
    );
    let got_q = cl.read(&qb, &quads);
    let got_m = cl.read(&mb, &mixed);
    for i in 0..n {
        // SAFETY: Quad's members are plain data over the same 16 bytes.
        let (want, got) = unsafe {
            let a = quads[i];
            let want = if i & 1 == 1 {
                a.u
            } else {
                let mut p = a.p;
                p.x += 1.0;
                p.n[1] = p.n[0].wrapping_sub(5);
                let mut b = Quad { p };
                b.u[3] = a.u[3] ^ 0xff;
                b.u
            };
            (want, got_q[i].u)
        };
        assert_eq!(got, want, "quad {i}");

        let mut x = mixed[i];
        let v = x.v.0;
        x.v.0 = [v[0].wrapping_add(i as u8), v[2], v[1], v[3]];
        x.l = x.l.wrapping_neg().wrapping_mul(3);
        x.c = x.s[0] as i8;
        let g = got_m[i];
        // `v`'s fourth byte is a uchar3's padding: compare its lanes.
        assert_eq!(
            (g.c, g.l, &g.v.0[..3], g.s),
            (x.c, x.l, &x.v.0[..3], x.s),
            "mixed {i}"
        );
    }
}

#[repr(C, packed)]
#[derive(Clone, Copy)]
struct PackedPair {
    a: i32,
    b: i64,
}

#[test]
fn packed_structs_with_word_aligned_longs() {
    let cl = setup();
    let n = 512;
    let pairs: Vec<PackedPair> = random(n, 13);
    let buf = cl.buffer(&pairs);
    let kernel = cl.kernel("packed_pairs");
    // SAFETY: one buffer of PackedPair (12 bytes each), as declared.
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&buf) },
        n,
        None,
    );
    let got = cl.read(&buf, &pairs);
    assert_eq!(size_of::<PackedPair>(), 12);
    for i in 0..n {
        let (a, b) = (pairs[i].a, pairs[i].b);
        let (ga, gb) = (got[i].a, got[i].b);
        assert_eq!(
            (ga, gb),
            (i as i32, b.wrapping_add(i64::from(a))),
            "pair {i}"
        );
    }
}

#[repr(C)]
#[derive(Clone, Copy)]
struct Big {
    data: [u8; 300],
    tail: i16,
}

#[test]
fn large_structs_with_char_members_by_value() {
    let cl = setup();
    let n = 300;
    let big = Big {
        data: std::array::from_fn(|k| mix(k as u64) as u8),
        tail: -1234,
    };
    let out = cl.buffer(&vec![0i32; n]);
    let kernel = cl.kernel("big_by_value");
    // SAFETY: an int buffer and a Big by value (repr(C) as the kernel's).
    run(
        &cl,
        unsafe { ExecuteKernel::new(&kernel).set_arg(&out).set_arg(&big) },
        n,
        None,
    );
    let got = cl.read(&out, &vec![0i32; n]);
    for (i, g) in got.iter().enumerate() {
        assert_eq!(
            *g,
            i32::from(big.data[i]) * 2 + i32::from(big.tail),
            "work-item {i}"
        );
    }
}
