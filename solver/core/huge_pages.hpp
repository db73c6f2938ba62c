// Large tables on huge pages where the kernel allows them (transparent huge pages, "always"
// or "madvise"): an array of 1 MiB or more is allocated 2 MiB-aligned, rounded up to whole
// 2 MiB pages (an array of just over 1 MiB takes 2, one of 9 MiB takes 10), and marked
// MADV_HUGEPAGE before its first touch, so its pages come 2 MiB at a time. A first touch of
// fresh memory is a page fault a 4 KiB page; where faults are dear (a virtual machine: about
// 5 us each measured here) a 24-cell space's 128 MiB of toad tables took 0.6 s to fault in.
// For the tables a process makes once and keeps (a space's); not for a solve's tier arrays,
// made and let go by the thousand: on huge pages a 22-cell solve took 1.04x the time and
// 0.4 GiB more at its peak (results/FRONTIER.md). Where the kernel has no huge pages the
// advice is ignored and the arrays are ordinary.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>
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
  if (bytes > SIZE_MAX - kHugePage) throw std::bad_alloc();
  const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (!p) throw std::bad_alloc();
  ::madvise(p, rounded, MADV_HUGEPAGE);  // advice: a kernel without huge pages says no, harmlessly
  return p;
}
inline void release_huge(void* p) { std::free(p); }

/// std::allocator's twin for large tables (std::vector<T, HugePageAllocator<T>>). An element
/// made without a value is default-initialised: resize(n) leaves a table of numbers unwritten
/// (the maker writes every entry: a zero fill first was a second pass over fresh pages);
/// assign(n, 0) still zeroes.
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
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) noexcept(std::is_nothrow_constructible_v<U, Args...>) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

/// A large table on huge pages. Unlike std::vector, resize(n), emplace_back() and HugeVector(n)
/// leave numbers unwritten (HugePageAllocator::construct): write every entry, or assign.
template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace toadbase
