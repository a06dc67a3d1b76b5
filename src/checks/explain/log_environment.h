#pragma once
// The Python environment a pasted log ran in, from the paths it prints ("/home/u/venv/lib/python3.11/
// site-packages/torch/...", "/opt/env/bin/python setup.py ..."), so explain's fixes can target that
// environment rather than whichever Python this shell would run. Text only: nothing is looked up here.
#include <string>
#include <vector>

namespace gpucheck::explain {

/// The environment prefixes (the directory holding bin/python and lib/pythonX.Y) the log names, in the
/// order they first appear, each once: "/home/u/venv" for ".../venv/lib/python3.11/site-packages/..." and
/// for ".../venv/bin/python3". System prefixes (/usr, /usr/local) are left out: they name no environment.
std::vector<std::string> python_prefixes_named_in(const std::string& log);

}  // namespace gpucheck::explain
