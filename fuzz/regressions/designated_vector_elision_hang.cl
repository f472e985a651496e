// A designated vector member given a vector of another width: brace
// elision into it made no progress and `Checker::fill` looped for ever.
struct S { float2 b; };
kernel void k(global float *o){ struct S s = {.b = (float4)(1.0f)}; o[0]=s.b.x; }
