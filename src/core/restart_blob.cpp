#include "core/restart_blob.hpp"

#include <stdexcept>

namespace halfstep {

namespace {

constexpr char kMagic[8] = {'H', 'S', 'R', 'E', 'S', 'T', 'R', 'T'};
constexpr std::uint32_t kVersion = 1;

void append_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);  // little-endian on every host
}

}  // namespace

constexpr std::uint64_t kPrime = 0x100000001b3ull;

void Hasher64::update(const void* data, std::size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  while (pending_ > 0 && pending_ < 8 && i < n) tail_[pending_++] = p[i++];
  if (pending_ == 8) {
    std::uint64_t w;
    std::memcpy(&w, tail_, 8);
    h_ = (h_ ^ w) * kPrime;
    pending_ = 0;
  }
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);  // little-endian hosts only (x86-64, Arm64 Linux)
    h_ = (h_ ^ w) * kPrime;
  }
  while (i < n) tail_[pending_++] = p[i++];
}

std::uint64_t Hasher64::value() const {
  std::uint64_t h = h_;
  for (std::size_t i = 0; i < pending_; ++i) h = (h ^ tail_[i]) * kPrime;
  return h;
}

std::uint64_t hash64(const void* data, std::size_t n, std::uint64_t h) {
  Hasher64 hasher(h);
  hasher.update(data, n);
  return hasher.value();
}

const std::string& RestartBlob::bytes(const std::string& name) const {
  const auto it = sections_.find(name);
  if (it == sections_.end()) fail("section '" + name + "' is missing (a restart of another kind of run?)");
  // Views exist only in blobs being written; parse() makes every section owned.
  if (it->second.view) throw std::logic_error("RestartBlob: section '" + name + "' is a view");
  return it->second.owned;
}

void RestartBlob::write(const std::function<void(const void*, std::size_t)>& sink) const {
  Hasher64 hasher;
  const auto out = [&](const void* p, std::size_t n) {
    hasher.update(p, n);
    sink(p, n);
  };
  std::string head;  // the small fields go out in batches, the sections' data as they are
  const auto flush = [&] {
    out(head.data(), head.size());
    head.clear();
  };
  head.assign(kMagic, sizeof kMagic);
  append_u64(head, kVersion);
  append_u64(head, sections_.size());
  for (const auto& [name, s] : sections_) {
    const std::size_t n = s.view ? s.view_size : s.owned.size();
    append_u64(head, name.size());
    head += name;
    append_u64(head, n);
    if (n > 4096) {
      flush();
      out(s.view ? s.view : s.owned.data(), n);
    } else {
      head.append(s.view ? s.view : s.owned.data(), n);
    }
  }
  flush();
  std::string sum;
  append_u64(sum, hasher.value());
  sink(sum.data(), sum.size());
}

std::string RestartBlob::serialize() const {
  std::string out;
  write([&](const void* p, std::size_t n) { out.append(static_cast<const char*>(p), n); });
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
    blob.sections_[name].owned = chunk(u64());
  }
  if (at != end) blob.fail("the restart file has bytes after its last section");
  return blob;
}

}  // namespace halfstep
