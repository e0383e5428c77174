// SPDX-License-Identifier: Apache-2.0
#include "test/common/buffers.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace kai_test {

namespace {
size_t page_size() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

constexpr uint32_t kSentinelF32 = 0x7FC0DEADu;
constexpr uint16_t kSentinelBf16 = 0x7FDEu;
constexpr uint8_t kCanary = 0xC3;
}  // namespace

GuardedBuffer::GuardedBuffer(size_t size, uint8_t fill) : size_(size) {
    const size_t page = page_size();
    const size_t body = (size + page - 1) / page * page;
    mapping_size_ = body + 2 * page;
    void* p = mmap(nullptr, mapping_size_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        std::perror("GuardedBuffer: mmap");
        std::abort();
    }
    mapping_ = static_cast<uint8_t*>(p);
    if (body != 0 && mprotect(mapping_ + page, body, PROT_READ | PROT_WRITE) != 0) {
        std::perror("GuardedBuffer: mprotect");
        std::abort();
    }
    // The data ends exactly where the trailing guard page starts.
    data_ = mapping_ + page + (body - size);
    std::memset(mapping_ + page, kCanary, body - size);
    std::memset(data_, fill, size);
}

GuardedBuffer::~GuardedBuffer() {
    if (mapping_ == nullptr) return;
    const ::testing::AssertionResult front = front_intact();
    if (!front) ADD_FAILURE() << front.message();
    munmap(mapping_, mapping_size_);
}

::testing::AssertionResult GuardedBuffer::front_intact() const {
    for (const uint8_t* p = data_; p > mapping_ + page_size();) {
        --p;
        if (*p != kCanary) {
            return ::testing::AssertionFailure()
                   << "write before the start of a " << size_ << "-byte guarded buffer, " << (data_ - p)
                   << " byte(s) before it";
        }
    }
    return ::testing::AssertionSuccess();
}

DstBuffer::DstBuffer(size_t rows, size_t cols, size_t elem_size, size_t stride_bytes)
    : rows_(rows),
      cols_(cols),
      elem_size_(elem_size),
      stride_(stride_bytes),
      buf_(kMargin + (rows == 0 ? 0 : (rows - 1) * stride_bytes + stride_bytes)) {
    if (elem_size != 4 && elem_size != 2) {
        std::fprintf(stderr, "DstBuffer: elem_size must be 4 or 2\n");
        std::abort();
    }
    if (stride_bytes < cols * elem_size) {
        std::fprintf(stderr, "DstBuffer: stride_bytes smaller than a row\n");
        std::abort();
    }
    uint8_t* p = buf_.data();
    for (size_t off = 0; off + elem_size <= buf_.size(); off += elem_size) {
        if (elem_size == 4) {
            std::memcpy(p + off, &kSentinelF32, 4);
        } else {
            std::memcpy(p + off, &kSentinelBf16, 2);
        }
    }
}

uint8_t* DstBuffer::at(size_t row, size_t col) { return buf_.data() + kMargin + row * stride_ + col * elem_size_; }

uint32_t DstBuffer::bits(size_t row, size_t col) const {
    const uint8_t* p = base() + row * stride_ + col * elem_size_;
    if (elem_size_ == 4) {
        uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}

float DstBuffer::value(size_t row, size_t col) const {
    uint32_t b = bits(row, col);
    if (elem_size_ == 2) b <<= 16;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

::testing::AssertionResult DstBuffer::untouched_outside(size_t row0, size_t nrows, size_t col0,
                                                         size_t ncols) const {
    const uint32_t sentinel = elem_size_ == 4 ? kSentinelF32 : kSentinelBf16;
    // The margin before row 0 (a whole number of sentinels).
    for (size_t off = 0; off < kMargin; off += elem_size_) {
        uint32_t v = 0;
        std::memcpy(&v, buf_.data() + off, elem_size_);
        if (v != sentinel) {
            return ::testing::AssertionFailure()
                   << "write before element (0, 0), " << kMargin - off << " bytes before it: 0x" << std::hex << v
                   << " instead of the sentinel 0x" << sentinel;
        }
    }
    const uint8_t* p = base();
    const size_t size = buf_.size() - kMargin;
    // Walk the matrix in element-sized units (the stride is a multiple of elem_size in every
    // test; a trailing partial unit is compared byte-wise).
    for (size_t off = 0; off < size; off += elem_size_) {
        const size_t row = off / stride_;
        const size_t col_bytes = off % stride_;
        const bool in_row_body = col_bytes < cols_ * elem_size_;
        const size_t col = col_bytes / elem_size_;
        const bool inside = in_row_body && row >= row0 && row < row0 + nrows && col >= col0 && col < col0 + ncols;
        if (inside) continue;
        uint32_t v = 0;
        const size_t len = off + elem_size_ <= size ? elem_size_ : size - off;
        std::memcpy(&v, p + off, len);
        const uint32_t expect = len == elem_size_ ? sentinel : (sentinel & ((1u << (8 * len)) - 1));
        if (v != expect) {
            std::ostringstream os;
            os << "write outside the tile [" << row0 << "," << row0 + nrows << ")x[" << col0 << "," << col0 + ncols
               << "): ";
            if (in_row_body) {
                os << "element (" << row << ", " << col << ")";
            } else {
                os << "stride gap of row " << row << " at byte " << col_bytes;
            }
            os << " holds 0x" << std::hex << v << " instead of the sentinel 0x" << expect;
            return ::testing::AssertionFailure() << os.str();
        }
    }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult DstBuffer::written_inside(size_t row0, size_t nrows, size_t col0, size_t ncols) const {
    const uint32_t sentinel = elem_size_ == 4 ? kSentinelF32 : kSentinelBf16;
    for (size_t r = row0; r < row0 + nrows; ++r) {
        for (size_t c = col0; c < col0 + ncols; ++c) {
            if (bits(r, c) == sentinel) {
                return ::testing::AssertionFailure()
                       << "element (" << r << ", " << c << ") inside the tile was not written";
            }
        }
    }
    return ::testing::AssertionSuccess();
}

}  // namespace kai_test
