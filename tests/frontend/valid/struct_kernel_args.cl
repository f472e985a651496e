// Structs passed by value as kernel arguments (a camera and a 3x4 matrix)
// and nested struct arrays in global memory, as ray casters do.
typedef struct {
    float4 rows[3];
} Mat3x4;

typedef struct {
    float4 eye;
    float4 dir;
    float fov;
    int width;
    int height;
    int pad;
} Camera;

typedef struct {
    float4 center_radius;
    uint material;
    uint pad[3];
} Sphere;

float4 transform(Mat3x4 m, float4 p)
{
    return (float4)(dot(m.rows[0], p), dot(m.rows[1], p), dot(m.rows[2], p), 1.0f);
}

__kernel void primary_rays(const Camera cam, const Mat3x4 world,
                           __global const Sphere *spheres, const int sphere_count,
                           __global uint *hit_material)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= cam.width || y >= cam.height)
        return;
    const float u = (2.0f * x / cam.width - 1.0f) * cam.fov;
    const float v = (2.0f * y / cam.height - 1.0f) * cam.fov;
    const float3 d = normalize(cam.dir.xyz + (float3)(u, v, 0.0f));
    const float3 o = transform(world, cam.eye).xyz;
    uint hit = 0;
    float best = MAXFLOAT;
    for (int s = 0; s < sphere_count; s++) {
        const float4 cr = spheres[s].center_radius;
        const float3 oc = o - cr.xyz;
        const float b = dot(oc, d);
        const float c = dot(oc, oc) - cr.w * cr.w;
        const float disc = b * b - c;
        if (disc > 0.0f) {
            const float t = -b - sqrt(disc);
            if (t > 0.0f && t < best) {
                best = t;
                hit = spheres[s].material;
            }
        }
    }
    hit_material[y * cam.width + x] = hit;
}
