// Large arrays on huge pages where the kernel allows them (transparent huge pages, "always"
// or "madvise"): an array of 1 MiB or more is allocated 2 MiB-aligned, rounded up to whole
// 2 MiB pages (an array of just over 1 MiB takes 2, one of 9 MiB takes 10), and
// marked MADV_HUGEPAGE before its first touch, so its pages come 2 MiB at a time. A first
// touch of fresh memory is a page fault a 4 KiB page; where faults are dear (a virtual
// machine: about 5 us each measured here) a 24-cell space's 128 MiB of toad tables took 0.6 s
// to fault in, and a solve's tier arrays about 4 % of its time. The tier scans also read
// their children at random across whole tiers, which huge pages cover with far fewer TLB
// entries.
// Where the kernel has no huge pages the advice is ignored and the arrays are ordinary.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace toadbase {

inline constexpr size_t kHugePage = size_t{2} << 20;
inline constexpr size_t kHugeFrom = size_t{1} << 20;

/// Raw memory for `bytes`: on huge pages (advised) from kHugeFrom up, else malloc's.
/// Free with release_huge(). Throws std::bad_alloc.
inline void* allocate_huge(size_t bytes) {
  if (bytes < kHugeFrom) {
    if (void* p = std::malloc(bytes ? bytes : 1)) return p;
    throw std::bad_alloc();
  }
  const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (!p) throw std::bad_alloc();
  ::madvise(p, rounded, MADV_HUGEPAGE);  // advice: a kernel without huge pages says no, harmlessly
  return p;
}
inline void release_huge(void* p) { std::free(p); }

/// std::allocator's twin for large tables (std::vector<T, HugePageAllocator<T>>).
template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(allocate_huge(n * sizeof(T)));
  }
  void deallocate(T* p, size_t) noexcept { release_huge(p); }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

/// An uninitialised array of n trivial T (a tier's records: the pieces that write it touch
/// its pages first), on huge pages when it is large.
struct HugeDeleter {
  void operator()(void* p) const noexcept { release_huge(p); }
};
template <class T>
using HugeArray = std::unique_ptr<T[], HugeDeleter>;
template <class T>
HugeArray<T> make_huge_array(size_t n) {
  static_assert(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>);
  if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
  return HugeArray<T>(static_cast<T*>(allocate_huge(n * sizeof(T))));
}

}  // namespace toadbase
