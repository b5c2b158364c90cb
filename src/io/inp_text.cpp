#include "io/inp_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace halfstep::inp {

namespace {
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
char to_upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

std::optional<double> parse_double(const char* first, const char* last) {
  double v = 0;
  const auto [end, ec] = std::from_chars(first, last, v, std::chars_format::general);
  if (ec != std::errc() || end != last || !std::isfinite(v)) return std::nullopt;
  return v;
}
}  // namespace

std::string_view trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_blank(s[b])) ++b;
  while (e > b && is_blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::string_view unquote(std::string_view s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return s.substr(1, s.size() - 2);
  return s;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_upper(c);
  return out;
}

std::string squeeze_upper(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s)
    if (!is_blank(c)) out.push_back(to_upper(c));
  return out;
}

std::optional<double> to_real(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return std::nullopt;
  // from_chars accepts "inf"/"nan" spellings; parse_double refuses them through isfinite.
  if (auto v = parse_double(s.data(), s.data() + s.size())) return v;
  // Fortran-style exponents (1.0D+03) appear in decks written by older tools.
  char buf[64];
  if (s.size() >= sizeof buf) return std::nullopt;
  bool changed = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    buf[i] = s[i];
    if (s[i] == 'd' || s[i] == 'D') buf[i] = 'E', changed = true;
  }
  if (!changed) return std::nullopt;
  return parse_double(buf, buf + s.size());
}

std::optional<std::int64_t> to_int(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return std::nullopt;
  // Up to 18 digits cannot overflow: node and element ids, parsed here millions of times,
  // take this loop rather than from_chars' general path.
  const bool negative = s.front() == '-';
  const std::string_view digits = negative ? s.substr(1) : s;
  if (!digits.empty() && digits.size() <= 18) {
    std::int64_t d = 0;
    for (const char c : digits) {
      const unsigned u = static_cast<unsigned>(c) - static_cast<unsigned>('0');
      if (u > 9) return std::nullopt;
      d = d * 10 + static_cast<std::int64_t>(u);
    }
    return negative ? -d : d;
  }
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string format_real(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

}  // namespace halfstep::inp
