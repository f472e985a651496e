// options: -cl-std=CLC++
// Application-style C++ for OpenCL kernels (issue 22): a templated
// work-group reduction, a complex-number class in an FFT, sorting with
// comparator functors and lambdas, and a small vector/matrix library in a
// particle step. tests/cxx_applications.rs checks each against a host
// reference.

template <typename T> struct Plus {
    static constexpr T identity() { return T(0); }
    T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct Max {
    static T identity() { return -1000000; }
    T operator()(T a, T b) const { return a > b ? a : b; }
};

template <typename T, typename Op>
T reduce_group(__local T *scratch, T value, Op op) {
    const uint l = get_local_id(0);
    const uint n = get_local_size(0);
    scratch[l] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint stride = n / 2; stride > 0; stride /= 2) {
        if (l < stride)
            scratch[l] = op(scratch[l], scratch[l + stride]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    T result = scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return result;
}

template <typename T, typename Op>
T reduce_range(const __global T *in, uint count, Op op) {
    T acc = Op::identity();
    for (uint i = get_global_id(0); i < count; i += get_global_size(0))
        acc = op(acc, in[i]);
    return acc;
}

kernel void reduce(global const float *f, global const int *k, uint count,
                   global float *fsum, global int *imax) {
    local float fs[64];
    local int is[64];
    float s = reduce_group(fs, reduce_range(f, count, Plus<float>()), Plus<float>());
    int m = reduce_group(is, reduce_range(k, count, Max<int>()), Max<int>{});
    if (get_local_id(0) == 0) {
        fsum[get_group_id(0)] = s;
        imax[get_group_id(0)] = m;
    }
}

template <typename T>
class complex {
public:
    T re, im;
    complex() = default;
    constexpr complex(T r, T i = T(0)) : re(r), im(i) {}
    complex operator+(complex o) const { return complex(re + o.re, im + o.im); }
    complex operator-(complex o) const { return complex(re - o.re, im - o.im); }
    complex operator*(complex o) const {
        return complex(re * o.re - im * o.im, re * o.im + im * o.re);
    }
    complex conj() const { return {re, -im}; }
    T norm() const { return re * re + im * im; }
};

template <typename T> complex<T> polar(T angle) {
    T c;
    T s = sincos(angle, &c);
    return complex<T>(c, s);
}

template <typename T> void swap(T &a, T &b) {
    T t = a;
    a = b;
    b = t;
}

constexpr uint reverse_bits(uint x, int bits) {
    uint r = 0;
    for (int i = 0; i < bits; i++) {
        r = (r << 1) | (x & 1);
        x >>= 1;
    }
    return r;
}

template <typename T, int LOG2N>
void fft(complex<T> (&data)[1 << LOG2N]) {
    constexpr int N = 1 << LOG2N;
    for (uint i = 0; i < N; i++) {
        uint j = reverse_bits(i, LOG2N);
        if (j > i)
            swap(data[i], data[j]);
    }
    for (int len = 2; len <= N; len <<= 1) {
        const T step = T(-2) * M_PI_F / len;
        for (int start = 0; start < N; start += len) {
            for (int k = 0; k < len / 2; k++) {
                complex<T> w = polar(step * k);
                complex<T> u = data[start + k];
                complex<T> v = data[start + k + len / 2] * w;
                data[start + k] = u + v;
                data[start + k + len / 2] = u - v;
            }
        }
    }
}

kernel void fft16(global const float2 *in, global float2 *out, global float *power) {
    size_t g = get_global_id(0);
    complex<float> x[16];
    for (int i = 0; i < 16; i++)
        x[i] = complex<float>(in[g * 16 + i].x, in[g * 16 + i].y);
    fft<float, 4>(x);
    float total = 0;
    for (int i = 0; i < 16; i++) {
        out[g * 16 + i] = (float2)(x[i].re, x[i].im);
        total += (x[i] * x[i].conj()).re;
    }
    power[g] = total;
}

struct Less {
    template <typename T> bool operator()(const T &a, const T &b) const { return a < b; }
};
struct Greater {
    bool operator()(int a, int b) const { return a > b; }
};
struct ByAbsThenValue {
    bool operator()(int a, int b) const {
        int x = abs(a), y = abs(b);
        return x != y ? x < y : a < b;
    }
};

template <typename T, int N, typename Compare>
void insertion_sort(T (&keys)[N], Compare less) {
    for (int i = 1; i < N; i++) {
        T key = keys[i];
        int j = i - 1;
        while (j >= 0 && less(key, keys[j])) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = key;
    }
}

template <typename T, typename Compare>
void bitonic_sort_local(__local T *data, uint n, Compare less) {
    uint l = get_local_id(0);
    for (uint size = 2; size <= n; size <<= 1) {
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            uint partner = l ^ stride;
            if (partner > l) {
                bool ascending = (l & size) == 0;
                T a = data[l], b = data[partner];
                if (less(b, a) == ascending) {
                    data[l] = b;
                    data[partner] = a;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
}

kernel void sort_rows(global const int *in, global int *out, int order) {
    size_t g = get_global_id(0);
    int keys[16];
    for (int i = 0; i < 16; i++)
        keys[i] = in[g * 16 + i];
    switch (order) {
    case 0: insertion_sort(keys, Less()); break;
    case 1: insertion_sort(keys, Greater{}); break;
    case 2: insertion_sort(keys, ByAbsThenValue()); break;
    default: {
        const int pivot = order;
        insertion_sort(keys, [pivot](int a, int b) noexcept {
            return (a % pivot) != (b % pivot) ? (a % pivot) < (b % pivot) : a < b;
        });
    }
    }
    for (int i = 0; i < 16; i++)
        out[g * 16 + i] = keys[i];
}

kernel void sort_group(global float *data) {
    local float tile[64];
    uint l = get_local_id(0);
    size_t g = get_global_id(0);
    tile[l] = data[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    bitonic_sort_local(tile, get_local_size(0), Less{});
    data[g] = tile[l];
}

namespace phys {
struct vec3 {
    float x, y, z;
    vec3() : x(0), y(0), z(0) {}
    vec3(float x_, float y_, float z_) : x(x_), y(y_), z(z_) {}
    explicit vec3(float s) : x(s), y(s), z(s) {}
    vec3 operator+(const vec3 &o) const { return vec3(x + o.x, y + o.y, z + o.z); }
    vec3 operator-(const vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
    vec3 operator*(float s) const { return vec3(x * s, y * s, z * s); }
    vec3 &operator+=(const vec3 &o) { x += o.x; y += o.y; z += o.z; return *this; }
    vec3 operator-() const { return vec3(-x, -y, -z); }
    float dot(const vec3 &o) const noexcept { return x * o.x + y * o.y + z * o.z; }
    float length2() const { return dot(*this); }
    static vec3 load(const __global float *p, size_t i) { return vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]); }
    void store(__global float *p, size_t i) const { p[3 * i] = x; p[3 * i + 1] = y; p[3 * i + 2] = z; }
};
inline vec3 operator*(float s, const vec3 &v) { return v * s; }

struct mat3 {
    vec3 rows[3];
    vec3 operator*(const vec3 &v) const { return vec3(rows[0].dot(v), rows[1].dot(v), rows[2].dot(v)); }
    static mat3 rotation_z(float c, float s) {
        mat3 m;
        m.rows[0] = vec3(c, -s, 0.0f);
        m.rows[1] = vec3(s, c, 0.0f);
        m.rows[2] = vec3(0.0f, 0.0f, 1.0f);
        return m;
    }
};

template <typename Force>
struct Integrator {
    Force force;
    float dt;
    void step(vec3 &pos, vec3 &vel) const {
        vec3 a = force(pos, vel);
        vel += a * dt;
        pos += dt * vel;
    }
};
} // namespace phys

struct Spring {
    float k, damping;
    phys::vec3 operator()(const phys::vec3 &p, const phys::vec3 &v) const {
        return -p * k - v * damping;
    }
};

using namespace phys;

kernel void particle_step(global float *pos, global float *vel, global float *energy,
                          float dt, float c, float s, int steps) {
    size_t i = get_global_id(0);
    vec3 p = vec3::load(pos, i);
    vec3 v = vec3::load(vel, i);
    Integrator<Spring> integ{Spring{2.0f, 0.1f}, dt};
    for (int n = 0; n < steps; n++)
        integ.step(p, v);
    const mat3 r = mat3::rotation_z(c, s);
    p = r * p;
    v = r * v;
    p.store(pos, i);
    v.store(vel, i);
    energy[i] = 0.5f * v.length2() + 0.5f * integ.force.k * p.length2();
}
