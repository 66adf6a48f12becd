// libzmq's C API (Debian: libzmq3-dev, libzmq 4.3.4, no DRAFT API).
#include <zmq.h>
