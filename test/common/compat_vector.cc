// SPDX-License-Identifier: Apache-2.0
#include "test/common/compat_vector.h"

#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kai_test {

namespace {
const char* kDataDir = "test/data/compat";

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
}  // namespace

const std::string& CompatVector::str(const std::string& key) const {
    static const std::string empty;
    auto it = header.find(key);
    if (it == header.end()) {
        ADD_FAILURE() << path << ": header key '" << key << "' missing";
        return empty;
    }
    return it->second;
}

size_t CompatVector::size(const std::string& key) const {
    return static_cast<size_t>(std::strtoull(str(key).c_str(), nullptr, 10));
}

uint32_t CompatVector::bits(const std::string& key) const {
    return static_cast<uint32_t>(std::strtoul(str(key).c_str(), nullptr, 16));
}

float CompatVector::clamp_min() const {
    const uint32_t b = bits("clamp_min_bits");
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

float CompatVector::clamp_max() const {
    const uint32_t b = bits("clamp_max_bits");
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

const CompatSection& CompatVector::section(const std::string& name) const {
    static const CompatSection empty;
    auto it = sections.find(name);
    if (it == sections.end()) {
        ADD_FAILURE() << path << ": section [" << name << "] missing";
        return empty;
    }
    return it->second;
}

CompatVector load_compat_vector(const std::string& path) {
    CompatVector v;
    v.path = path;
    std::ifstream in(path);
    if (!in) {
        ADD_FAILURE() << "cannot open compat vector " << path;
        return v;
    }
    std::string line;
    bool in_header = true;
    CompatSection* cur = nullptr;
    size_t expected_bytes = 0;
    std::string cur_name;
    auto finish = [&]() {
        if (cur != nullptr && cur->bytes.size() != expected_bytes) {
            ADD_FAILURE() << path << ": section [" << cur_name << "] has " << cur->bytes.size() << " bytes, header says "
                          << expected_bytes;
        }
    };
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line[0] == '#') continue;
        if (in_header) {
            if (line.empty()) {
                if (!v.header.empty()) in_header = false;
                continue;
            }
            const size_t colon = line.find(':');
            if (colon == std::string::npos) {
                ADD_FAILURE() << path << ": malformed header line '" << line << "'";
                return v;
            }
            std::string key = line.substr(0, colon);
            std::string value = line.substr(colon + 1);
            value.erase(0, value.find_first_not_of(' '));
            v.header[key] = value;
            continue;
        }
        if (line.empty()) continue;
        if (line[0] == '[') {
            finish();
            const size_t close = line.find(']');
            cur_name = line.substr(1, close - 1);
            std::istringstream rest(line.substr(close + 1));
            CompatSection s;
            rest >> expected_bytes >> s.type >> s.shape;
            v.sections[cur_name] = s;
            cur = &v.sections[cur_name];
            cur->bytes.reserve(expected_bytes);
            cur->mask.reserve(expected_bytes);
            continue;
        }
        if (cur == nullptr || line.size() % 2 != 0) {
            ADD_FAILURE() << path << ": unexpected line '" << line.substr(0, 40) << "'";
            return v;
        }
        for (size_t i = 0; i < line.size(); i += 2) {
            if (line[i] == '.' && line[i + 1] == '.') {
                cur->bytes.push_back(0);
                cur->mask.push_back(0);
                continue;
            }
            const int hi = hex_digit(line[i]);
            const int lo = hex_digit(line[i + 1]);
            if (hi < 0 || lo < 0) {
                ADD_FAILURE() << path << ": bad hex '" << line.substr(i, 2) << "'";
                return v;
            }
            cur->bytes.push_back(static_cast<uint8_t>(hi * 16 + lo));
            cur->mask.push_back(1);
        }
    }
    finish();
    return v;
}

std::vector<std::string> list_compat_vectors(const std::string& prefix) {
    std::vector<std::string> out;
    DIR* d = opendir(kDataDir);
    if (d == nullptr) return out;
    while (dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".txt") == 0 && name.rfind(prefix, 0) == 0) {
            out.push_back(std::string(kDataDir) + "/" + name);
        }
    }
    closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

::testing::AssertionResult lhs_pack_matches_vectors(const std::string& prefix, size_t count, const LhsPackFn& pack) {
    const std::vector<std::string> files = list_compat_vectors(prefix);
    if (files.size() != count) {
        return ::testing::AssertionFailure() << files.size() << " files named " << prefix << "*, expected " << count;
    }
    for (const std::string& f : files) {
        const CompatVector cv = load_compat_vector(f);
        const CompatSection& want = cv.section("lhs_packed");
        std::vector<uint8_t> got(want.bytes.size(), 0);
        pack(cv.size("m"), cv.size("k"), cv.size("mr"), cv.size("kr"), cv.size("sr"), cv.section("lhs").bytes.data(),
             cv.size("lhs_stride"), got.data());
        for (size_t i = 0; i < got.size(); ++i) {
            if (want.mask[i] && got[i] != want.bytes[i]) {
                return ::testing::AssertionFailure() << f << ": byte " << i << " is " << int{got[i]} << ", KleidiAI's "
                                                     << int{want.bytes[i]};
            }
        }
    }
    return ::testing::AssertionSuccess();
}

}  // namespace kai_test
