// The numbers a command line takes, checked before CLI11 converts them, so that a value out
// of range or not a number is said in the project's words and names the option:
//
//   --seed -1                 --seed: must be 0 or more, not -1
//   --length 4294967302       --length: 4294967302 is out of range (1..22)
//   --limit ten               --limit: 'ten' is not a whole number
//   --plan-rate 0             --plan-rate: must be more than 0, not 0
//
// instead of CLI11's ("Value -1 not in range 0 to 1.797693e+308", "Could not convert:
// --length = 4294967302"). CLI11 puts "--seed: " before what a check returns; a check that
// passes leaves nothing for CLI11's own conversion to refuse (the value fits the option's type).
#pragma once

#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "solver/core/printable.hpp"

namespace toadbase {

namespace detail {

/// The user's text in a message: escaped, the first 40 bytes of a longer one.
inline std::string quoted_number(const std::string& text) {
  return "'" + printable_excerpt(text, 40) + "'";
}

/// Whether `text` is a sign then decimal digits only.
inline bool digits_only(const std::string& text) {
  const size_t from = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  return text.size() > from && text.find_first_not_of("0123456789", from) == std::string::npos;
}

}  // namespace detail

/// The name CLI11 knows these checks by (tools/cli.cpp leaves an option that has one alone).
inline const std::string kNumberCheck = "toadbase-number";

/// A check of a whole-number option stored as T: decimal digits with an optional sign, within
/// [lo, hi] (T's own limits unless given).
template <class T>
CLI::Validator whole_number_in(T lo = std::numeric_limits<T>::lowest(),
                               T hi = std::numeric_limits<T>::max()) {
  static_assert(std::is_integral_v<T>);
  constexpr T kTypeMax = std::numeric_limits<T>::max();
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  CLI::Validator v(
      [lo, hi, range](std::string& text) -> std::string {
        if (!detail::digits_only(text))
          return detail::quoted_number(text) + " is not a whole number";
        const std::string_view digits =
            text[0] == '+' ? std::string_view(text).substr(1) : std::string_view(text);
        T value{};
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        const bool fits = ec == std::errc() && end == digits.data() + digits.size();
        const bool below = fits ? value < lo : text[0] == '-';
        if (fits && !below && value <= hi) return {};
        const std::string shown = printable_excerpt(text, 40);
        if (below && hi == kTypeMax)
          return "must be " + std::to_string(lo) + " or more, not " + shown;
        return shown + " is out of range (" + range + ")";
      },
      hi == kTypeMax ? std::string() : range,  // the help page shows a bounded range after the type
      kNumberCheck);
  return v;
}

/// A check of a real-number option: a finite number above `above` (or at least it when
/// `inclusive`).
inline CLI::Validator real_number_above(double above, bool inclusive) {
  auto name = [](double x) {
    std::string s = std::to_string(x);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  };
  const std::string bound = name(above);
  return CLI::Validator(
      [above, inclusive, bound](std::string& text) -> std::string {
        char* end = nullptr;
        const double x = text.empty() || std::isspace(static_cast<unsigned char>(text[0]))
                             ? std::nan("")
                             : std::strtod(text.c_str(), &end);
        if (std::isnan(x) || end != text.c_str() + text.size() || !std::isfinite(x))
          return detail::quoted_number(text) + " is not a number";
        if (inclusive ? x >= above : x > above) return {};
        return "must be " + std::string(inclusive ? "" : "more than ") + bound +
               (inclusive ? " or more" : "") + ", not " + printable_excerpt(text, 40);
      },
      "", kNumberCheck);
}

}  // namespace toadbase
