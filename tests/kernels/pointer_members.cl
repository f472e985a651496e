// Pointers stored in struct members and arrays of pointers
// (tests/pointer_members.rs checks every value against the host).

typedef struct {
    global float *p;
    int n;
} View;

typedef struct {
    global int *p;
    int n;
} View2;

typedef struct {
    View v;
    global const float *w[2];
    float scale;
} Nested;

// A by-value struct parameter: its member is read as a pointer.
float sum(View v) {
    float s = 0.0f;
    for (int i = 0; i < v.n; i++) {
        s += v.p[i];
    }
    return s;
}

// A struct changed and returned by value.
View shift(View v, int k) {
    v.p += k;
    v.n -= k;
    return v;
}

View make(global float *p, int n) {
    View v = { p, n };
    return v;
}

// A pointer member written through a pointer to the struct.
void retarget(View *v, global float *p) {
    v->p = p;
}

float weigh(Nested s, int k) {
    return s.scale * (sum(s.v) + s.w[k][1]);
}

// out[i * 8 + k], per work-item i, with c = pick[i] in 0..2.
kernel void members(global float *a, global float *b, global const int *pick,
                    global float *out) {
    int i = get_global_id(0);
    int c = pick[i];
    global float *o = out + i * 8;
    View v = { a + i, 4 };
    o[0] = sum(v);
    View w;
    w.p = b + i + 1;
    w.n = 2;
    o[1] = w.p[0] * 10.0f + sum(w);
    // A member chosen at run time, copied, shifted, returned.
    View u = { c ? a + i : b + i, 3 };
    View t = shift(u, 1);
    o[2] = sum(u) + 100.0f * sum(t);
    // An array of structs indexed at run time.
    View arr[2] = { { a + i, 1 }, make(b + i, 2) };
    o[3] = sum(arr[c]);
    // A zeroed member is null.
    View z = { 0 };
    o[4] = (z.p == 0 ? 1.0f : 2.0f) + (u.p == a + i ? 10.0f : 20.0f);
    // Nested records and an array member of pointers.
    Nested s = { { b + i, 2 }, { a + i, b + i }, 0.5f };
    o[5] = weigh(s, c);
    retarget(&w, a + i + 2);
    o[6] = w.p[1] + sum(w);
    o[7] = make(c ? b + i : a + i, 1).p[0];
}

// Arrays of pointers: initialised, indexed at run time, assigned.
kernel void arrays(global int *a, global int *b, global const int *pick,
                   global int *out) {
    int i = get_global_id(0);
    int c = pick[i];
    global int *o = out + i * 6;
    global int *ptrs[2] = { a + i, b + i };
    global int *p = ptrs[c];
    o[0] = *p;
    ptrs[c] = ptrs[1 - c] + 2;
    o[1] = *ptrs[0] * 1000 + *ptrs[1];
    global int *grid[2][2] = { { a, b }, { b + 1, a + 1 } };
    o[2] = grid[c][1 - c][i];
    const global int *ro[3];
    for (int k = 0; k < 3; k++) {
        ro[k] = (k + c) % 2 ? a + i + k : b + i + k;
    }
    o[3] = ro[0][0] + ro[1][0] * 10 + ro[2][0] * 100;
    global int *none[2] = { a + i };
    o[4] = none[1] == 0 ? 1 : 2;
    o[5] = none[c] ? *none[c] : -1;
}

void advance(global int **p) {
    (*p)++;
}

void point(global int **p, global int *to) {
    *p = to;
}

global int *later(global int **p, int k) {
    return *p + k;
}

// Pointers to pointer variables, in the kernel and in helpers.
kernel void indirect(global int *a, global int *b, global const int *pick,
                     global int *out) {
    int i = get_global_id(0);
    int c = pick[i];
    global int *o = out + i * 8;
    global int *x = c ? a + i : b + i;
    global int **pp = &x;
    o[0] = **pp;
    *pp = a + i + 2;
    o[1] = *x;
    advance(&x);
    o[2] = *x;
    global int *y = b + i;
    // A pointer to one of two pointer variables, chosen at run time.
    global int **qq = c ? &x : &y;
    advance(qq);
    o[3] = *y * 1000 + *x;
    point(qq, a + i + 5);
    o[4] = **qq + *later(qq, 1) * 1000;
    global int *ptrs[2] = { a + i, b + i };
    global int **r = ptrs;
    advance(&ptrs[1]);
    o[5] = *r[1] * 1000 + **r;
    advance(r + c);
    o[6] = *ptrs[0] * 1000 + *ptrs[1];
    o[7] = (pp == &x) + (qq == &y) * 10;
}

global int *offset(global int *p, int k) {
    return p + k;
}

// A pointer returned by a function given a pointer chosen at run time.
kernel void chosen_calls(global int *a, global int *b, global const int *pick,
                         global int *out) {
    int i = get_global_id(0);
    int c = pick[i];
    global int *p = c ? a : b;
    global int *q = offset(p, i + 1);
    out[i * 2] = *q;
    out[i * 2 + 1] = *offset(offset(p, i), 2) + (q == (c ? a : b) + i + 1);
}

// Struct places: copies, member increments, a member stored through a
// pointer to one of two structs chosen at run time. Each work-item owns
// s[i * 16 .. i * 16 + 16].
kernel void struct_places(global int *s, global const int *pick, global int *out) {
    int i = get_global_id(0);
    int c = pick[i];
    global int *o = out + i * 4;
    global int *r0 = s + i * 16, *r1 = s + i * 16 + 8;
    View2 v = { r0, 1 }, w = { r1, 2 };
    View2 x = c ? v : w;
    x.p++;
    *x.p++ = 5;
    x.p += 2;
    w = x;
    o[0] = *w.p + (int)(w.p - r0) * 100 + (x.p > v.p) * 1000 + w.n * 10000;
    View2 *vp = c ? &v : &w;
    o[1] = vp->p[0];
    vp->p = r1 + 6;
    o[2] = *v.p;
    o[3] = *w.p;
}

typedef struct {
    local int *p;
    int n;
} LocalView;

int local_get(LocalView l) {
    return l.p[l.n];
}

// Members pointing into __local memory, read in a helper; private arrays
// of pointers in the kernel.
kernel void local_members(global int *out) {
    local int t[16];
    local int u[16];
    int l = get_local_id(0);
    t[l] = l;
    u[l] = 2 * l;
    barrier(CLK_LOCAL_MEM_FENCE);
    LocalView v = { get_global_id(0) & 1 ? t : u, 3 };
    int priv[3] = { 7, 8, 9 };
    int *pp[2] = { priv, priv + 1 };
    pp[get_global_id(0) & 1] += 1;
    out[get_global_id(0) * 2] = local_get(v);
    out[get_global_id(0) * 2 + 1] = *pp[0] * 10 + *pp[1];
}
