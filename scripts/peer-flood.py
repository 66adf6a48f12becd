#!/usr/bin/env python3
"""Opens COUNT ZeroMQ connections (each finishes the plain NULL handshake, as a real peer's
would) to ENDPOINT, holds them SECONDS, samples PID's resident memory all the while, then
closes them and samples it again after SETTLE seconds. Used by scripts/chaos (peer-flood).

    scripts/peer-flood.py tcp://127.0.0.1:5555 DEALER 10000 PID [SECONDS] [SETTLE]

Prints one line: "PEAK_MIB AFTER_MIB OPENED REFUSED", where REFUSED counts the connections the
role closed (past its --max-peers) while they were held.
"""
import resource, socket, struct, sys, time

def rss_mib(pid, field):
    try:
        status = open(f'/proc/{pid}/status').read()
    except FileNotFoundError:
        # The role ended under the flood: no figure is honest, so none is printed.
        sys.exit(f'peer-flood: process {pid} ended during the flood; nothing measured')
    for line in status.splitlines():
        if line.startswith(field + ':'):
            return int(line.split()[1]) // 1024
    return 0

def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    endpoint, socket_type, count, pid = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3]), int(sys.argv[4])
    hold = float(sys.argv[5]) if len(sys.argv) > 5 else 5
    settle = float(sys.argv[6]) if len(sys.argv) > 6 else 3
    host, port = endpoint.removeprefix('tcp://').rsplit(':', 1)
    greeting = b'\xff' + b'\x00' * 8 + b'\x7f' + bytes([3, 0]) + b'NULL'.ljust(20, b'\x00') + b'\x00' * 32
    body = b'\x05READY' + bytes([11]) + b'Socket-Type' + struct.pack('>I', len(socket_type)) + socket_type
    ready = bytes([0x04, len(body)]) + body
    peak, held = 0, []
    for index in range(count):
        connection = socket.socket()
        try:
            connection.connect((host, int(port)))
            connection.sendall(greeting + ready)
        except OSError:
            connection.close()
            continue
        held.append(connection)
        if index % 500 == 0:
            peak = max(peak, rss_mib(pid, 'VmRSS'))
    deadline = time.time() + hold
    while time.time() < deadline:
        peak = max(peak, rss_mib(pid, 'VmRSS'))
        time.sleep(0.2)
    refused = 0
    for connection in held:
        # A connection past the cap is closed by the role: end of file (or a reset) here.
        connection.setblocking(False)
        try:
            while True:
                data = connection.recv(65536)
                if not data:
                    refused += 1
                    break
        except (BlockingIOError, ConnectionResetError) as error:
            if isinstance(error, ConnectionResetError):
                refused += 1
        connection.close()
    time.sleep(settle)
    peak = max(peak, rss_mib(pid, 'VmHWM'))
    print(peak, rss_mib(pid, 'VmRSS'), len(held), refused)

main()
