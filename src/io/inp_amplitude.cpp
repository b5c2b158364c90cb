// *AMPLITUDE and the amplitudes that loads, motions and temperatures name (AMPLITUDE=, and
// the peer's TIME DELAY=, a shifted copy).
#include <string>

#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

void DeckParser::amplitude_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME", "DEFINITION", "TIME", "VALUE", "INPUT"});
  amp_ = Amplitude{};
  amp_.name = upper(unquote(trim(required_param(kw, "NAME"))));
  amp_.loc = loc(kw.pos);
  if (const auto it = m_.amplitudes.find(amp_.name); it != m_.amplitudes.end())
    fail(kw.pos, "amplitude '" + amp_.name + "' is defined twice (first at " + it->second.loc.str() + ")");
  const std::string def = squeeze_upper(param(kw, "DEFINITION"));
  if (def.empty() || def == "TABULAR") amp_.kind = Amplitude::Kind::Tabular;
  else if (def == "SMOOTHSTEP") amp_.kind = Amplitude::Kind::SmoothStep;
  else
    fail(kw.pos, "*AMPLITUDE, DEFINITION=" + param(kw, "DEFINITION") +
                     " is not supported (TABULAR or SMOOTH STEP)");
  const std::string time = squeeze_upper(param(kw, "TIME"));
  if (!time.empty() && time != "STEPTIME" && time != "TOTALTIME")
    fail(kw.pos, "*AMPLITUDE, TIME=" + param(kw, "TIME") + " is not supported (STEP TIME or TOTAL TIME)");
  // Total time equals step time in a single-step model; finish() refuses it otherwise.
  amp_total_time_ = time == "TOTALTIME";
  const std::string value = squeeze_upper(param(kw, "VALUE"));
  if (!value.empty() && value != "RELATIVE")
    fail(kw.pos, "*AMPLITUDE, VALUE=" + param(kw, "VALUE") + " is not supported (RELATIVE only)");
  amp_half_pair_ = false;
  follow_input(kw);
}

// Pairs t, a; a pair may wrap onto the next line.
void DeckParser::amplitude_data(const Line& line) {
  for (std::string_view f : line.fields) {
    if (!amp_half_pair_) {
      amp_time_ = real(f, "an amplitude time");
      if (!amp_.time.empty() && !(amp_time_ > amp_.time.back()))
        fail(at_, "amplitude '" + amp_.name + "': times must increase strictly, but " +
                      format_real(amp_time_) + " follows " + format_real(amp_.time.back()));
      amp_half_pair_ = true;
    } else {
      amp_.time.push_back(amp_time_);
      amp_.value.push_back(real(f, "an amplitude value"));
      amp_half_pair_ = false;
    }
  }
}

void DeckParser::amplitude_end() {
  if (amp_half_pair_)
    fail(at_, "amplitude '" + amp_.name + "' ends with a time that has no value (data are time, value pairs)");
  if (amp_.time.empty())
    fail(kw_.pos, "*AMPLITUDE '" + amp_.name + "' needs data lines with time, value pairs");
  if (amp_total_time_) total_time_amplitudes_.push_back(kw_.pos);
  const std::string name = amp_.name;
  m_.amplitudes[name] = std::move(amp_);
}

std::string DeckParser::reference_amplitude(const Keyword& kw) {
  const bool delayed = static_cast<bool>(kw.find("TIMEDELAY"));
  if (!kw.find("AMPLITUDE")) {
    if (delayed) fail(kw.pos, kw.display + ", TIME DELAY shifts an amplitude in time: give AMPLITUDE= too");
    return {};
  }
  std::string name = upper(unquote(trim(required_param(kw, "AMPLITUDE"))));
  amplitude_refs_.emplace_back(name, kw.pos);
  if (delayed) {
    // The peer's TIME DELAY=d: the load follows A(t - d), an amplitude of its own (made once
    // every amplitude is read).
    const double d = real(param(kw, "TIMEDELAY"), "the TIME DELAY");
    if (d != 0) {
      const std::string shifted = name + " (TIME DELAY=" + format_real(d) + ")";
      delayed_amplitudes_.push_back({shifted, name, d});
      name = shifted;
    }
  }
  return name;
}

// Amplitudes may be defined after the loads that use them, so they are checked at the end,
// and the delayed copies made then.
void DeckParser::check_amplitude_references() {
  for (const auto& [name, pos] : amplitude_refs_)
    if (!m_.amplitudes.count(name)) fail(pos, "amplitude '" + name + "' is not defined");
  for (const DelayedAmplitude& d : delayed_amplitudes_) {
    if (m_.amplitudes.count(d.name)) continue;
    Amplitude a = m_.amplitudes.at(d.base);
    a.name = d.name;
    for (double& t : a.time) t += d.delay;
    m_.amplitudes[d.name] = std::move(a);
  }
}

}  // namespace halfstep::inp
