// Black-Scholes option pricing: the cumulative normal distribution from a
// polynomial with __constant coefficients, exp/log/sqrt, one option per
// work-item.
__constant float cnd_coeff[5] = { 0.31938153f, -0.356563782f, 1.781477937f,
                                  -1.821255978f, 1.330274429f };

float cnd(float d)
{
    const float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float poly = 0.0f;
    for (int i = 4; i >= 0; --i)
        poly = poly * k + cnd_coeff[i];
    poly *= k;
    const float c = 0.39894228040143267794f * exp(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - c : c;
}

__kernel void black_scholes(__global float *call, __global float *put,
                            __global const float *spot, __global const float *strike,
                            __global const float *years,
                            const float riskfree, const float volatility)
{
    const int i = get_global_id(0);
    const float S = spot[i], X = strike[i], T = years[i];
    const float sqrtT = sqrt(T);
    const float d1 = (log(S / X) + (riskfree + 0.5f * volatility * volatility) * T) /
                     (volatility * sqrtT);
    const float d2 = d1 - volatility * sqrtT;
    const float expRT = exp(-riskfree * T);
    call[i] = S * cnd(d1) - X * expRT * cnd(d2);
    put[i] = X * expRT * (1.0f - cnd(d2)) - S * (1.0f - cnd(d1));
}
