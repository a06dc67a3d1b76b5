#pragma once
// Random access to bytes that need not be in memory: a parser of a large format (a 500 MB library's fat
// binaries) reads the few headers it needs instead of the whole range. A file source reads with pread, so
// a file truncated while read is an error, never a SIGBUS.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpucheck {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual std::uint64_t size() const = 0;
  /// Copies `n` bytes from offset `off` into `dst`; the caller has checked off + n <= size(). Throws
  /// (the source's own error type) when the bytes cannot be read.
  virtual void read(std::uint64_t off, void* dst, std::size_t n) const = 0;

  template <typename T>
  T load(std::uint64_t off) const {
    T v;
    read(off, &v, sizeof v);
    return v;
  }
};

/// Bytes already in memory (tests, fuzzers, small sections).
class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string_view bytes) : b_(bytes) {}
  std::uint64_t size() const override { return b_.size(); }
  void read(std::uint64_t off, void* dst, std::size_t n) const override {
    if (off > b_.size() || n > b_.size() - off) throw std::out_of_range("MemorySource: read past the end");
    std::memcpy(dst, b_.data() + off, n);
  }

 private:
  std::string_view b_;
};

/// A window [base, base + size) of another source.
class SubSource final : public ByteSource {
 public:
  SubSource(const ByteSource& whole, std::uint64_t base, std::uint64_t size) : whole_(whole), base_(base), size_(size) {}
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t off, void* dst, std::size_t n) const override {
    if (off > size_ || n > size_ - off) throw std::out_of_range("SubSource: read past the end");
    whole_.read(base_ + off, dst, n);
  }

 private:
  const ByteSource& whole_;
  std::uint64_t base_, size_;
};

/// Reads through a window of `window` bytes: many small reads close together (fat-binary headers, most
/// of whose payloads are a few KB) become one read of the source each. Not thread-safe.
class WindowedReader {
 public:
  WindowedReader(const ByteSource& src, std::size_t window) : src_(src), window_(window) {}
  void read(std::uint64_t off, void* dst, std::size_t n) {
    if (n > window_) return src_.read(off, dst, n);
    if (off < at_ || off + n > at_ + buf_.size()) {
      std::uint64_t left = src_.size() > off ? src_.size() - off : 0;
      buf_.resize(static_cast<std::size_t>(left < window_ ? left : window_));
      if (buf_.size() < n) return src_.read(off, dst, n);  // past the end: let the source say so
      src_.read(off, buf_.data(), buf_.size());
      at_ = off;
    }
    std::memcpy(dst, buf_.data() + (off - at_), n);
  }

 private:
  const ByteSource& src_;
  std::size_t window_;
  std::string buf_;
  std::uint64_t at_ = 0;
};

}  // namespace gpucheck
