// SPDX-License-Identifier: Apache-2.0
// Buffers that catch out-of-bounds accesses: guard pages for packed inputs, a NaN-sentinel
// destination for outputs.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

namespace kai_test {

// A heap buffer whose last byte is immediately followed by an inaccessible (PROT_NONE) page: any
// read or write past the end faults (SIGSEGV). The data starts at `size` bytes before that page;
// the rest of the page in front of it holds a canary and is preceded by another PROT_NONE page.
// A write before the start therefore faults beyond the canary and is reported by the destructor
// (as a test failure) within it; a read just before the start goes unnoticed. Contents start as
// `fill`. Not copyable.
class GuardedBuffer {
public:
    explicit GuardedBuffer(size_t size, uint8_t fill = 0xA5);
    ~GuardedBuffer();
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;

    uint8_t* data() { return data_; }
    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }
    // Success when the canary in front of the data is intact.
    ::testing::AssertionResult front_intact() const;

private:
    uint8_t* mapping_ = nullptr;
    size_t mapping_size_ = 0;
    uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

// A destination matrix of `rows` x `cols` elements of `elem_size` bytes (4 for f32, 2 for bf16)
// with a row stride of `stride_bytes` (>= cols * elem_size), filled entirely with a sentinel
// (a quiet NaN with a recognisable payload, 0x7FC0DEAD for f32 and 0x7FDE for bf16). The whole
// allocation, including the stride gaps, ends at a guard page and starts after a margin of 64
// sentinel bytes, so that a write just before element (0, 0) is seen by untouched_outside().
class DstBuffer {
public:
    DstBuffer(size_t rows, size_t cols, size_t elem_size, size_t stride_bytes);

    // Pointer to element (row, col).
    uint8_t* at(size_t row, size_t col);
    size_t stride() const { return stride_; }
    size_t rows() const { return rows_; }
    size_t cols() const { return cols_; }
    size_t elem_size() const { return elem_size_; }
    // The value of element (row, col) as float (bf16 widened).
    float value(size_t row, size_t col) const;
    // Raw bits of element (row, col), zero-extended.
    uint32_t bits(size_t row, size_t col) const;

    // Success when every byte outside [row0, row0+nrows) x [col0, col0+ncols), stride gaps, the
    // columns beyond `cols` and the margin before row 0 included, still holds the sentinel;
    // otherwise names the first changed element or byte.
    ::testing::AssertionResult untouched_outside(size_t row0, size_t nrows, size_t col0, size_t ncols) const;
    // Success when every element inside the tile was written (no sentinel left).
    ::testing::AssertionResult written_inside(size_t row0, size_t nrows, size_t col0, size_t ncols) const;

private:
    static constexpr size_t kMargin = 64;  // sentinel bytes before element (0, 0)
    const uint8_t* base() const { return buf_.data() + kMargin; }
    size_t rows_, cols_, elem_size_, stride_;
    GuardedBuffer buf_;
};

}  // namespace kai_test
