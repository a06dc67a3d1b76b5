// A renderer that reads a check's own header instead of the model: refused (render may include core, model,
// inventory and knowledge only), although checks ranks below render.
#include "checks/doctor/rules.h"
#include "model/report.h"
