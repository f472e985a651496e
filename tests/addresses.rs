//! Taking addresses end to end through the ICD: of compound literals
//! (C99 6.5.2.5: they are lvalues, objects of the enclosing block or, at
//! program scope, of static storage), of string literals held by
//! program-scope pointers, and of members of program-scope struct
//! variables (`__constant`, and `__global` in OpenCL C 3.0, written
//! through such pointers too). Every value is checked against the same
//! computation on the host.

mod common;

use common::launch::launch;
use common::{buffer_with, context_and_queue, read_buffer};
use opencl3::context::Context;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::program::Program;

fn build(context: &Context, source: &str, options: &str) -> Program {
    Program::create_and_build_from_source(context, source, options)
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
}

/// Inputs of the kernels: each work-item reads one.
const INPUTS: [i32; 6] = [0, 1, 2, 5, -3, 11];

const LITERALS: &str = r#"
struct S { int a; float b; };
int get(int *p) { return *p; }
void bump(int *p, int by) { *p += by; }
float scaled(struct S *s) { return s->b * 2.0f + s->a; }

kernel void literals(global const int *in, global int *out) {
    int i = get_global_id(0);
    int x = in[i];
    int *p = &(int){x * 3};
    *p += 1;
    struct S *s = &(struct S){x, 2.5f};
    s->a += 10;
    int *q = &(int[]){x, x + 7}[1];
    int r = get(&(int){x - 4});
    int t = 0;
    for (int k = 0; k < 3; k++) {
        int *c = &(int){k};
        bump(c, x);
        t += *c;
    }
    int *m = &(struct S){x + 1, 1.0f}.a;
    *m *= 2;
    out[i * 7 + 0] = *p;
    out[i * 7 + 1] = s->a + (int)(s->b * 2.0f);
    out[i * 7 + 2] = *q;
    out[i * 7 + 3] = r;
    out[i * 7 + 4] = t;
    out[i * 7 + 5] = *m;
    out[i * 7 + 6] = (int)scaled(&(struct S){x, 0.5f});
}
"#;

#[test]
fn compound_literals_are_objects() {
    let (context, queue) = context_and_queue();
    let program = build(&context, LITERALS, "");
    let input = buffer_with(&context, &queue, &INPUTS);
    let out = buffer_with(&context, &queue, &[i32::MIN; INPUTS.len() * 7]);
    launch(&queue, &program, "literals", INPUTS.len(), |k| {
        // SAFETY: buffers of the parameter types, as long as the kernel
        // reads and writes.
        unsafe { k.set_arg(&input).set_arg(&out) };
    });
    let mut expected = Vec::new();
    for x in INPUTS {
        let t: i32 = (0..3).map(|k| k + x).sum();
        expected.extend([
            x * 3 + 1,
            x + 10 + 5,
            x + 7,
            x - 4,
            t,
            (x + 1) * 2,
            (0.5f32 * 2.0 + x as f32) as i32,
        ]);
    }
    assert_eq!(read_buffer(&queue, &out, expected.len()), expected);
}

const PROGRAM_LITERALS: &str = r#"
constant int *t = (constant int[]){10, 20, 30};
global int *u = (global int[]){1, 2, 3};
constant char *s2 = "world";
constant int *v = &(constant int){4};

kernel void program_literals(global const int *in, global int *out) {
    int i = get_global_id(0);
    int k = in[i] & 0xff;
    constant char *s = "abc";
    out[i * 6 + 0] = t[k % 3];
    out[i * 6 + 1] = s[k % 3];
    out[i * 6 + 2] = s2[k % 5];
    out[i * 6 + 3] = *v;
    out[i * 6 + 4] = u[k % 3];
    out[i * 6 + 5] = t[(k + 1) % 3] - t[k % 3];
}

kernel void bump_program_literal(int k) {
    u[k] += 100;
}
"#;

#[test]
fn program_scope_literals_have_static_storage() {
    let (context, queue) = context_and_queue();
    let program = build(&context, PROGRAM_LITERALS, "-cl-std=CL3.0");
    let inputs: Vec<i32> = (0..12).collect();
    let input = buffer_with(&context, &queue, &inputs);
    let out = buffer_with(&context, &queue, &vec![i32::MIN; inputs.len() * 6]);
    launch(&queue, &program, "bump_program_literal", 1, |k| {
        // SAFETY: an int, the kernel's parameter.
        unsafe { k.set_arg(&1i32) };
    });
    launch(&queue, &program, "program_literals", inputs.len(), |k| {
        // SAFETY: buffers of the parameter types, as long as the kernel
        // reads and writes.
        unsafe { k.set_arg(&input).set_arg(&out) };
    });
    let mut u = [1, 2, 3];
    u[1] += 100;
    let t = [10, 20, 30];
    let mut expected = Vec::new();
    for k in inputs {
        let k = k as usize;
        expected.extend([
            [10, 20, 30][k % 3],
            i32::from(b"abc"[k % 3]),
            i32::from(b"world"[k % 5]),
            4,
            u[k % 3],
            t[(k + 1) % 3] - t[k % 3],
        ]);
    }
    assert_eq!(read_buffer(&queue, &out, expected.len()), expected);
}

#[test]
fn a_function_scope_pointer_to_a_string_literal_reads_it() {
    let (context, queue) = context_and_queue();
    let source = r#"
kernel void strings(global int *out) {
    int i = get_global_id(0);
    constant char *s = "abc";
    out[i] = s[i % 4] + "xyz"[i % 3];
}
"#;
    let program = build(&context, source, "");
    let out = buffer_with(&context, &queue, &[-1i32; 8]);
    launch(&queue, &program, "strings", 8, |k| {
        // SAFETY: a buffer of eight ints, the kernel's parameter.
        unsafe { k.set_arg(&out) };
    });
    let expected: Vec<i32> = (0..8)
        .map(|i| i32::from(b"abc\0"[i % 4]) + i32::from(b"xyz"[i % 3]))
        .collect();
    assert_eq!(read_buffer(&queue, &out, 8), expected);
}

const CONSTANT_MEMBERS: &str = r#"
typedef struct { int a; float b[4]; } S;
typedef struct { S inner; int c[2]; } T;
constant S g = {1, {1.5f, 2.5f, 3.5f, 4.5f}};
constant T gt = {{2, {5.0f, 6.0f, 7.0f, 8.0f}}, {9, 10}};
constant S garr[3] = {{1, {1, 2, 3, 4}}, {2, {5, 6, 7, 8}}, {3, {9, 10, 11, 12}}};

float second(constant float *p) { return p[1]; }

kernel void constant_members(global const int *in, global float *out) {
    int i = get_global_id(0);
    int k = in[i] & 1;
    constant float *p = &g.b[1];
    out[i * 8 + 0] = p[k + 1];
    constant int *q = &g.a;
    out[i * 8 + 1] = *q + k;
    constant float *r = &gt.inner.b[k];
    out[i * 8 + 2] = r[1];
    constant int *c = &gt.c[0];
    out[i * 8 + 3] = c[k];
    constant float *e = &garr[2].b[1];
    out[i * 8 + 4] = e[k];
    out[i * 8 + 5] = second(g.b + k);
    constant S *sp = &garr[k + 1];
    out[i * 8 + 6] = sp->b[k] + sp->a;
    constant int *ia = &garr[k].a;
    out[i * 8 + 7] = ia[0];
}
"#;

#[test]
fn members_of_program_scope_constant_structs_have_addresses() {
    let (context, queue) = context_and_queue();
    let program = build(&context, CONSTANT_MEMBERS, "");
    let input = buffer_with(&context, &queue, &INPUTS);
    let out = buffer_with(&context, &queue, &[f32::NAN; INPUTS.len() * 8]);
    launch(&queue, &program, "constant_members", INPUTS.len(), |k| {
        // SAFETY: buffers of the parameter types, as long as the kernel
        // reads and writes.
        unsafe { k.set_arg(&input).set_arg(&out) };
    });
    let g_b = [1.5f32, 2.5, 3.5, 4.5];
    let gt_b = [5.0f32, 6.0, 7.0, 8.0];
    let gt_c = [9, 10];
    let garr: [(i32, [f32; 4]); 3] = [
        (1, [1.0, 2.0, 3.0, 4.0]),
        (2, [5.0, 6.0, 7.0, 8.0]),
        (3, [9.0, 10.0, 11.0, 12.0]),
    ];
    let mut expected = Vec::new();
    for x in INPUTS {
        let k = (x & 1) as usize;
        expected.extend([
            g_b[1 + k + 1],
            (1 + k) as f32,
            gt_b[k + 1],
            gt_c[k] as f32,
            garr[2].1[1 + k],
            g_b[k + 1],
            garr[k + 1].1[k] + garr[k + 1].0 as f32,
            garr[k].0 as f32,
        ]);
    }
    assert_eq!(read_buffer(&queue, &out, expected.len()), expected);
}

const GLOBAL_MEMBERS: &str = r#"
typedef struct { int a; float b[4]; } S;
typedef struct { S inner; int c[2]; } T;
typedef struct { char c; int a; short s; } N;
global S gg = {1, {1.0f, 2.0f, 3.0f, 4.0f}};
global S gga[3];
global T gt;
global N gn = {1, 2, 3};

void store(global float *p, float v) { *p = v; }

kernel void write_members(int k) {
    global float *p = &gg.b[1];
    p[k] = 10.0f + k;
    global int *q = &gg.a;
    *q += 5;
    global float *r = &gga[2].b[1];
    r[k] = 7.0f;
    global int *ra = &gga[k].a;
    *ra = 42;
    store(&gt.inner.b[k + 1], 0.25f);
    global int *c = &gt.c[1];
    c[-1] = 3 + k;
    global int *na = &gn.a;
    *na += 40;
    global short *ns = &gn.s;
    *ns = -7;
}

kernel void read_members(global float *out) {
    for (int j = 0; j < 4; j++) {
        out[j] = gg.b[j];
        out[4 + j] = gga[2].b[j];
        out[8 + j] = gt.inner.b[j];
    }
    out[12] = gg.a;
    for (int j = 0; j < 3; j++)
        out[13 + j] = gga[j].a;
    out[16] = gt.c[0];
    out[17] = gt.c[1];
    out[18] = gn.c;
    out[19] = gn.a;
    out[20] = gn.s;
}
"#;

#[test]
fn members_of_program_scope_global_structs_are_written_through_their_addresses() {
    let (context, queue) = context_and_queue();
    let program = build(&context, GLOBAL_MEMBERS, "-cl-std=CL3.0");
    let k = 1i32;
    launch(&queue, &program, "write_members", 1, |kernel| {
        // SAFETY: an int, the kernel's parameter.
        unsafe { kernel.set_arg(&k) };
    });
    let out = buffer_with(&context, &queue, &[f32::NAN; 21]);
    launch(&queue, &program, "read_members", 1, |kernel| {
        // SAFETY: a buffer of 21 floats, the kernel's parameter.
        unsafe { kernel.set_arg(&out) };
    });
    let k = k as usize;
    let mut gg_b = [1.0f32, 2.0, 3.0, 4.0];
    gg_b[1 + k] = 10.0 + k as f32;
    let mut gga_b2 = [0.0f32; 4];
    gga_b2[1 + k] = 7.0;
    let mut gga_a = [0i32; 3];
    gga_a[k] = 42;
    let mut gt_b = [0.0f32; 4];
    gt_b[k + 1] = 0.25;
    let gt_c = [3 + k as i32, 0];
    let mut expected = gg_b.to_vec();
    expected.extend(gga_b2);
    expected.extend(gt_b);
    expected.push((1 + 5) as f32);
    expected.extend(gga_a.map(|a| a as f32));
    expected.extend(gt_c.map(|c| c as f32));
    // `gn`, a struct held as a byte image (its `char` and `short`).
    expected.extend([1.0, (2 + 40) as f32, -7.0]);
    assert_eq!(read_buffer(&queue, &out, 21), expected);
}

/// `struct __attribute__((packed)) { char c; int i; short s; }`.
#[repr(C, packed)]
#[derive(Clone, Copy, Default)]
struct Packed {
    c: i8,
    i: i32,
    s: i16,
}

const PACKED_CASTS: &str = r#"
typedef struct __attribute__((packed)) { char c; int i; short s; } P;

kernel void packed_casts(global P *ps, global int *out) {
    int t = get_global_id(0);
    P v = ps[t];
    private uchar *b = (private uchar *)&v.i;
    out[t * 9 + 0] = (int)((private uchar *)&v.s - (private uchar *)&v);
    out[t * 9 + 1] = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24;
    b[1] = 0x5a;
    out[t * 9 + 2] = v.i;
    out[t * 9 + 3] = v.c + v.s;
    global uchar *g = (global uchar *)&ps[t].i;
    out[t * 9 + 4] = (int)(g - (global uchar *)ps);
    g[3] = 0x11;
    local P lp[64];
    int l = get_local_id(0);
    lp[l] = v;
    local uchar *lb = (local uchar *)&lp[l].i;
    lb[0] = 0x22;
    out[t * 9 + 5] = lp[l].i;
    out[t * 9 + 6] = lp[l].c + lp[l].s;
    out[t * 9 + 7] = (int)((local char *)&lp[l].s - (local char *)lp);
    out[t * 9 + 8] = ((private char *)&v.s)[1];
}
"#;

#[test]
fn casts_of_packed_members_addresses_reach_their_bytes() {
    let (context, queue) = context_and_queue();
    let program = build(&context, PACKED_CASTS, "");
    let items: Vec<Packed> = (0..8)
        .map(|t| Packed {
            c: (t * 3 - 7) as i8,
            i: 0x0102_0304 * (t + 1) - 5 * t,
            s: (1000 - 300 * t) as i16,
        })
        .collect();
    let ps = buffer_with(&context, &queue, &items);
    let out = buffer_with(&context, &queue, &[i32::MIN; 8 * 9]);
    let kernel = Kernel::create(&program, "packed_casts").expect("kernel");
    // SAFETY: buffers of the parameter types, as long as the kernel reads
    // and writes; one work-group of eight.
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&ps)
            .set_arg(&out)
            .set_global_work_size(items.len())
            .set_local_work_size(8)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue")
    .wait()
    .expect("wait");
    let size = std::mem::size_of::<Packed>() as i32;
    let offset_i = std::mem::offset_of!(Packed, i) as i32;
    let offset_s = std::mem::offset_of!(Packed, s) as i32;
    let mut expected = Vec::new();
    let mut written = items.clone();
    for (t, p) in items.iter().enumerate() {
        let (c, i, s) = (i32::from(p.c), p.i, i32::from(p.s));
        let mut bytes = i.to_le_bytes();
        bytes[1] = 0x5a;
        let private_i = i32::from_le_bytes(bytes);
        // `lp[l]` is a copy of `v` after its write.
        let mut bytes = private_i.to_le_bytes();
        bytes[0] = 0x22;
        let local_i = i32::from_le_bytes(bytes);
        let mut bytes = i.to_le_bytes();
        bytes[3] = 0x11;
        written[t].i = i32::from_le_bytes(bytes);
        let l = t as i32;
        expected.extend([
            offset_s,
            i,
            private_i,
            c + s,
            t as i32 * size + offset_i,
            local_i,
            c + s,
            l * size + offset_s,
            i32::from(p.s.to_le_bytes()[1] as i8),
        ]);
    }
    assert_eq!(read_buffer(&queue, &out, expected.len()), expected);
    let back = read_buffer(&queue, &ps, items.len());
    for (b, w) in back.iter().zip(&written) {
        let (bc, bi, bs) = (b.c, b.i, b.s);
        let (wc, wi, ws) = (w.c, w.i, w.s);
        assert_eq!((bc, bi, bs), (wc, wi, ws));
    }
}

const THROUGH_POINTERS: &str = r#"
typedef struct { int a; float b[3]; } R;
constant R cr = {7, {1.5f, 2.5f, 3.5f}};
constant R cra[2] = {{1, {1, 2, 3}}, {2, {4, 5, 6}}};

void fill(R *r, int x) {
    int *p = &r->a;
    *p = x;
    float *q = &r->b[1];
    q[-1] = x * 0.5f;
    q[0] = 1.0f;
    q[1] = -x;
}

int total(local R *r) {
    local int *p = &r->a;
    return *p + (int)r->b[2];
}

float pick(constant R *r, int k) {
    constant float *f = &r->b[0];
    return f[k];
}

kernel void through_pointers(global const int *in, global float *out) {
    int i = get_global_id(0);
    int x = in[i];
    R r;
    fill(&r, x);
    out[i * 6 + 0] = r.a;
    out[i * 6 + 1] = r.b[0];
    out[i * 6 + 2] = r.b[1];
    out[i * 6 + 3] = r.b[2];
    local R lr[64];
    int l = get_local_id(0);
    lr[l].a = x;
    lr[l].b[2] = 3.0f;
    out[i * 6 + 4] = total(&lr[l]);
    constant R *cp = (x & 1) ? &cr : &cra[1];
    out[i * 6 + 5] = pick(cp, 1) + *&cp->a;
}
"#;

#[test]
fn members_of_structs_in_variables_have_addresses_through_pointers() {
    let (context, queue) = context_and_queue();
    let program = build(&context, THROUGH_POINTERS, "");
    let input = buffer_with(&context, &queue, &INPUTS);
    let out = buffer_with(&context, &queue, &[f32::NAN; INPUTS.len() * 6]);
    launch(&queue, &program, "through_pointers", INPUTS.len(), |k| {
        // SAFETY: buffers of the parameter types, as long as the kernel
        // reads and writes.
        unsafe { k.set_arg(&input).set_arg(&out) };
    });
    let mut expected = Vec::new();
    for x in INPUTS {
        let (a, b) = if x & 1 != 0 {
            (7, [1.5f32, 2.5, 3.5])
        } else {
            (2, [4.0, 5.0, 6.0])
        };
        expected.extend([
            x as f32,
            x as f32 * 0.5,
            1.0,
            -x as f32,
            (x + 3) as f32,
            b[1] + a as f32,
        ]);
    }
    assert_eq!(read_buffer(&queue, &out, expected.len()), expected);
}
