// Initializer lists with designators for structs, nested structs and
// arrays, and brace-initialised private arrays and vector members.
typedef struct {
    float2 origin;
    float2 extent;
} Rect;

typedef struct {
    int id;
    Rect box;
    float weights[4];
} Item;

__constant Item default_item = {
    .id = -1,
    .box = { .origin = (float2)(0.0f, 0.0f), .extent = (float2)(1.0f, 1.0f) },
    .weights = { [0] = 1.0f, [3] = 0.5f },
};

__kernel void initializers(__global float *out, __global int *ids)
{
    const int i = get_global_id(0);
    int lut[8] = { [1] = 10, [4] = 40, 50, [7] = 70 };
    Rect r = { .extent = (float2)(2.0f, 3.0f), .origin = (float2)(i, 0.0f) };
    Item item = { 7, { (float2)(0.0f), (float2)(1.0f) }, { 1.0f, 2.0f, 3.0f, 4.0f } };
    float acc = 0.0f;
    for (int k = 0; k < 4; k++)
        acc += item.weights[k] * default_item.weights[k];
    out[i] = acc + r.extent.x * r.extent.y + item.box.extent.y + r.origin.x;
    ids[i] = lut[i & 7] + item.id + default_item.id;
}
