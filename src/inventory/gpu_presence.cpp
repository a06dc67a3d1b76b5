#include "inventory/gpu_presence.h"

#include <cctype>

#include "core/text.h"

namespace gpucheck::inventory {
namespace {

constexpr const char* kPciDevices = "/sys/bus/pci/devices";

// "0x10de\n" -> "0x10de"; anything longer than a sysfs hex word is not one.
std::string sysfs_word(const platform::RootFs& fs, const std::string& path) {
  std::string v = trim(fs.read(path, 64));
  for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return v.size() <= 10 ? v : "";
}

}  // namespace

GpuPresence read_gpu_presence(const platform::RootFs& fs) {
  GpuPresence p;
  if (fs.is_dir(kPciDevices)) {
    p.checked = true;
    p.source = fs.live() ? kPciDevices : path_join(fs.root(), kPciDevices);
    for (const auto& name : fs.list(kPciDevices)) {
      const std::string dir = path_join(kPciDevices, name);
      if (sysfs_word(fs, dir + "/vendor") != "0x10de") continue;
      // PCI base class 0x03: display controller (0x0300 VGA, 0x0302 3D: every data-centre GPU). NVIDIA's
      // audio functions (0x0403) and NVSwitches (0x0680) are not GPUs.
      std::string cls = sysfs_word(fs, dir + "/class");
      if (!starts_with(cls, "0x03")) continue;
      p.pci_devices.push_back(name + " (device " + sysfs_word(fs, dir + "/device") + ", class " + cls + ")");
    }
  }
  for (const auto& n : fs.list("/dev")) {
    // nvidia0, nvidia1, ...: one node per GPU (nvidiactl, nvidia-uvm and nvidia-caps belong to the driver).
    if (starts_with(n, "nvidia") && n.size() > 6 && std::isdigit(static_cast<unsigned char>(n[6]))) p.device_nodes.push_back("/dev/" + n);
  }
  if (!p.device_nodes.empty()) p.checked = true;
  return p;
}

}  // namespace gpucheck::inventory
