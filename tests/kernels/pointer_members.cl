// Pointers stored in struct members and arrays of pointers
// (tests/pointer_members.rs checks every value against the host).

typedef struct {
    global float *p;
    int n;
} View;

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
