// Small text helpers for the keyword-deck reader: trimming, case folding, number parsing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace halfstep::inp {

/// s without leading and trailing blanks (space, tab, CR, form feed, vertical tab).
std::string_view trim(std::string_view s);

/// s without one pair of surrounding double quotes (Abaqus quotes names that contain blanks).
std::string_view unquote(std::string_view s);

/// Upper-case ASCII copy of s.
std::string upper(std::string_view s);

/// Upper-case copy of s with every blank removed: Abaqus ignores blanks in keyword and
/// parameter names, so "*SHELL SECTION" and "*SHELLSECTION" are the same keyword.
std::string squeeze_upper(std::string_view s);

/// The finite real number spelled by s (leading '+', Fortran 'D' exponents accepted), else nullopt.
/// "nan", "inf" and out-of-range values are refused: no input quantity may be non-finite.
std::optional<double> to_real(std::string_view s);

/// The integer spelled by s (leading '+' accepted), else nullopt.
std::optional<std::int64_t> to_int(std::string_view s);

/// Short text for a number in messages ("0.25", "1e+06").
std::string format_real(double v);

}  // namespace halfstep::inp
