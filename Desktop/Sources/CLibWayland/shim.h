/* libwayland-client, found through pkg-config (wayland-client); CWaylandClient builds on it. */
#include <wayland-client.h>
