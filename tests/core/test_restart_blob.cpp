// The restart file's container (core/restart_blob): the hash of a stream in pieces equals the
// hash of the whole, sections (owned or views) read back bit for bit, and a damaged file is
// refused with the reason.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/restart_blob.hpp"

namespace halfstep {
namespace {

std::string pattern(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + 7) % 251);
  return s;
}

TEST(Hasher64, PiecesHashAsTheWhole) {
  const std::string s = pattern(1000);
  const std::uint64_t whole = hash64(s.data(), s.size());
  for (std::size_t a : {0u, 1u, 3u, 7u, 8u, 9u, 500u})
    for (std::size_t b : {0u, 1u, 5u, 8u, 13u, 64u}) {
      if (a + b > s.size()) continue;
      Hasher64 h;
      h.update(s.data(), a);
      h.update(s.data() + a, b);
      h.update(s.data() + a + b, s.size() - a - b);
      EXPECT_EQ(h.value(), whole) << a << " " << b;
    }
}

TEST(Hasher64, EveryOneByteChangeChangesTheHash) {
  std::string s = pattern(77);
  const std::uint64_t h0 = hash64(s.data(), s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    s[i] ^= 0x40;
    EXPECT_NE(hash64(s.data(), s.size()), h0) << i;
    s[i] ^= 0x40;
  }
}

TEST(RestartBlob, SectionsReadBackBitForBit) {
  const std::vector<double> v = {1.0, -0.0, std::numeric_limits<double>::denorm_min(), std::nan(""), 1e308};
  const std::vector<std::uint8_t> big(10000, 7);
  RestartBlob b;
  b.put_vector("owned", v);
  b.put_view("view", big);  // over the streaming threshold: written straight from here
  b.put_value("count", std::int64_t{-42});
  b.put_text("text", "a,b\nc");
  const std::string bytes = b.serialize();
  std::string streamed;
  b.write([&](const void* p, std::size_t n) { streamed.append(static_cast<const char*>(p), n); });
  EXPECT_EQ(streamed, bytes);

  const RestartBlob r = RestartBlob::parse(bytes, "x.restart");
  std::vector<double> w;
  r.get_vector("owned", w, 5);
  ASSERT_EQ(w.size(), v.size());
  EXPECT_EQ(std::memcmp(w.data(), v.data(), sizeof(double) * v.size()), 0);
  std::vector<std::uint8_t> back;
  r.get_vector("view", back);
  EXPECT_EQ(back, big);
  EXPECT_EQ(r.get_value<std::int64_t>("count"), -42);
  EXPECT_EQ(r.bytes("text"), "a,b\nc");
  EXPECT_THROW(r.get_vector("owned", w, 4), RestartError);  // another model's size
  EXPECT_THROW(r.bytes("absent"), RestartError);
  EXPECT_THROW(r.get_value<int>("count"), RestartError);  // 8 bytes, not 4
}

TEST(RestartBlob, DamagedFilesAreRefusedWithTheReason) {
  RestartBlob b;
  b.put_text("s", pattern(300));
  const std::string bytes = b.serialize();
  const auto reason = [](const std::string& data) {
    try {
      RestartBlob::parse(data, "r.restart");
    } catch (const RestartError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(reason("").find("r.restart: error: not a halfstep restart file"), std::string::npos);
  EXPECT_NE(reason(bytes.substr(0, 12)).find("truncated"), std::string::npos);
  EXPECT_NE(reason(bytes.substr(0, bytes.size() - 1)).find("checksum does not match"), std::string::npos);
  std::string flipped = bytes;
  flipped[100] ^= 1;
  EXPECT_NE(reason(flipped).find("checksum does not match"), std::string::npos);
  EXPECT_EQ(reason(bytes), "accepted");
}

}  // namespace
}  // namespace halfstep
