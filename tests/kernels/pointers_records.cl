// options: -cl-std=CL2.0
// The pointer model meeting records held as byte images and float
// atomics: structs with char members and unions in private memory given
// to helpers by pointer (one of two chosen at run time), and float
// atomics through a pointer chosen at run time between two buffers.

typedef struct {
    uchar a;
    short b;
    char c;
} Small;

typedef union {
    float f;
    uchar bytes[4];
} Pun;

void fill(Small *s, int v) {
    s->a = (uchar)(v + 1);
    s->b = (short)(-v * 3);
    s->c = (char)(v - 5);
}

// Forwards the pointer it was given to another helper.
void fill_twice(Small *s, int v) {
    fill(s, v);
    s->a += (uchar)1;
}

int total(const Small *s, int n) {
    int t = 0;
    for (int k = 0; k < n; k++)
        t += s[k].a + s[k].b + s[k].c;
    return t;
}

void set_low_byte(Pun *p, uchar b) {
    p->bytes[0] = b;
}

__kernel void record_pointers(__global const int *in, __global int *out,
                              __global float *puns) {
    int i = get_global_id(0);
    int v = in[i];
    Small one;
    Small pair[2];
    fill(&one, v);
    fill_twice(&pair[0], v + 1);
    fill(pair + 1, v + 2);
    Small *chosen = (v & 1) ? &pair[1] : &one;
    chosen->c = (char)(chosen->c * 2);
    fill(chosen == &one ? &pair[0] : &one, 7);
    Pun p;
    p.f = (float)v;
    set_low_byte(&p, (uchar)i);
    out[i * 3 + 0] = total(&one, 1);
    out[i * 3 + 1] = total(pair, 2);
    out[i * 3 + 2] = one.a * 1000 + pair[0].c;
    puns[i] = p.f;
}

// Float atomics through a pointer chosen per work-item.
__kernel void float_atomics_chosen(__global float *even, __global float *odd,
                                   __global const float *in, __global float *old_values,
                                   volatile __global atomic_float *sums) {
    int i = get_global_id(0);
    __global float *slot = (i & 1) ? odd : even;
    old_values[i] = atomic_xchg(&slot[i >> 1], in[i]);
    volatile __global atomic_float *sum = (in[i] > 0.0f) ? &sums[1] : &sums[0];
    float expected = atomic_load_explicit(sum, memory_order_relaxed);
    while (!atomic_compare_exchange_weak(sum, &expected, expected + in[i])) {
    }
}
