#include "models/compute/fp8_overheads.hpp"

namespace dcsim::models::compute {

Fp8Traffic fp8_linear_traffic(const Fp8Linear& l) {
  Fp8Traffic t;
  const double input_bytes = l.input_cast_fused ? kFp8FusedCastTransposeBytes : kFp8CastTransposeBytes;
  const double grad_bytes = l.grad_cast_fused ? kFp8FusedCastTransposeBytes : kFp8CastTransposeBytes;
  t.forward_bytes = input_bytes * l.tokens * l.in;
  t.backward_bytes = grad_bytes * l.tokens * l.out;
  t.weight_bytes_per_step = kFp8CastTransposeBytes * l.in * l.out;
  t.amax_tensors = 3;  // input, weight, output gradient
  return t;
}

Fp8Traffic& operator+=(Fp8Traffic& a, const Fp8Traffic& b) {
  a.forward_bytes += b.forward_bytes;
  a.backward_bytes += b.backward_bytes;
  a.weight_bytes_per_step += b.weight_bytes_per_step;
  a.amax_tensors += b.amax_tensors;
  return a;
}

}  // namespace dcsim::models::compute
