// A core file that reaches up into the renderers: the layering check must refuse it.
#include "render/render.h"
