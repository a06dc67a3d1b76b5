#include "cli/cli_model.h"

#include "core/text.h"

namespace gpucheck::cli {

namespace {

OptionModel option_of(const CLI::Option& o) {
  OptionModel m;
  for (const auto& s : o.get_snames()) m.names.push_back("-" + s);
  for (const auto& l : o.get_lnames()) m.names.push_back("--" + l);
  if (m.names.empty()) m.positional = o.get_name();
  m.help = o.get_description();
  if (o.get_type_size() != 0) {
    // "TEXT:{quick,standard,long}": the value's name, then the checks' descriptions.
    const std::string type = o.get_type_name();
    const std::size_t colon = type.find(':');
    m.value = type.substr(0, colon);
    if (colon != std::string::npos) {
      std::string rest = type.substr(colon + 1);
      if (rest.size() > 2 && rest.front() == '{' && rest.back() == '}')
        for (const auto& c : split(rest.substr(1, rest.size() - 2), ',')) m.choices.push_back(trim(c));
    }
    if (m.value.empty()) m.value = "VALUE";
  }
  return m;
}

}  // namespace

CommandModel model_of(const CLI::App& app) {
  CommandModel m;
  m.name = app.get_name();
  m.description = app.get_description();
  m.footer = app.get_footer();
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_lnames() == std::vector<std::string>{"help"}) continue;
    m.options.push_back(option_of(*o));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) m.subcommands.push_back(model_of(*sub));
  return m;
}

const CLI::App& root_of(const CLI::App& sub) {
  const CLI::App* app = &sub;
  while (app->get_parent()) app = app->get_parent();
  return *app;
}

}  // namespace gpucheck::cli
