#include "core/restart_blob.hpp"

namespace halfstep {

namespace {

constexpr char kMagic[8] = {'H', 'S', 'R', 'E', 'S', 'T', 'R', 'T'};
constexpr std::uint32_t kVersion = 1;

void append_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);  // little-endian on every host
}

}  // namespace

std::uint64_t hash64(const void* data, std::size_t n, std::uint64_t h) {
  constexpr std::uint64_t kPrime = 0x100000001b3ull;
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);  // little-endian hosts only (x86-64, Arm64 Linux)
    h = (h ^ w) * kPrime;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * kPrime;
  return h;
}

const std::string& RestartBlob::bytes(const std::string& name) const {
  const auto it = sections_.find(name);
  if (it == sections_.end()) fail("section '" + name + "' is missing (a restart of another kind of run?)");
  return it->second;
}

std::string RestartBlob::serialize() const {
  std::string out(kMagic, sizeof kMagic);
  append_u64(out, kVersion);
  append_u64(out, sections_.size());
  for (const auto& [name, data] : sections_) {
    append_u64(out, name.size());
    out += name;
    append_u64(out, data.size());
    out += data;
  }
  append_u64(out, hash64(out.data(), out.size()));
  return out;
}

RestartBlob RestartBlob::parse(const std::string& bytes, const std::string& file) {
  RestartBlob blob;
  blob.file_ = file;
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    blob.fail("not a halfstep restart file");
  // The checksum first: every length read below is then one that was written.
  if (bytes.size() < sizeof kMagic + 24) blob.fail("the restart file is truncated");
  std::size_t end = bytes.size() - 8;
  std::uint64_t stored = 0;
  for (int i = 0; i < 8; ++i) stored |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[end + i])) << (8 * i);
  if (hash64(bytes.data(), end) != stored)
    blob.fail("the restart file is truncated or corrupt (its checksum does not match)");
  std::size_t at = sizeof kMagic;
  const auto u64 = [&]() {
    if (end - at < 8) blob.fail("the restart file is truncated");
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    at += 8;
    return v;
  };
  const auto chunk = [&](std::uint64_t n) {
    if (n > end - at) blob.fail("the restart file is truncated");
    std::string s = bytes.substr(at, static_cast<std::size_t>(n));
    at += static_cast<std::size_t>(n);
    return s;
  };
  const std::uint64_t version = u64();
  if (version != kVersion)
    blob.fail("restart format version " + std::to_string(version) + ", this halfstep reads version " +
              std::to_string(kVersion));
  const std::uint64_t count = u64();
  for (std::uint64_t k = 0; k < count; ++k) {
    std::string name = chunk(u64());
    blob.sections_[name] = chunk(u64());
  }
  if (at != end) blob.fail("the restart file has bytes after its last section");
  return blob;
}

}  // namespace halfstep
