// How the compiler copies an element of type T from or to memory, which is what the hardware
// counts: a number or a vector type whose size is its alignment (float2, int4) is one access of
// its size; a struct is copied member-wide, in accesses of its alignment (at most 16 bytes).
//
//   struct Vec3 { float x, y, z; };            // access_pieces<Vec3>: 3 accesses of 4 bytes
//   Vec3 p = pin[i];                           // nvcc: three LDG.E, Nsight Compute: 3 requests
//   struct alignas(16) Quad { float v[4]; };   // 1 access of 16 bytes (LDG.E.128)
//
// Both the emulator and gpu-trace record a struct copy as these accesses, in order, so the counts
// match Nsight Compute's (12 sectors per request for a warp reading consecutive Vec3s, 36 in all).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ws {

template <class T>
struct access_pieces {
  using V = std::remove_cv_t<T>;
  static constexpr uint32_t width = std::is_arithmetic_v<V> || std::is_pointer_v<V> || std::is_enum_v<V>
                                        ? uint32_t(sizeof(V))
                                        : uint32_t(alignof(V) < 16 ? alignof(V) : 16);
  static constexpr uint32_t count = uint32_t(sizeof(V) / width);
  static constexpr bool split = count > 1;
  static_assert(sizeof(V) % width == 0, "an element is a whole number of its accesses");
};

}  // namespace ws
