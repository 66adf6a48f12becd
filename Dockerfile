# Gridlock for real deployments: one image, three roles (see docker-compose.yml).
#   docker build -t gridlock .
FROM swift:6.1-bookworm AS build
WORKDIR /src
# scripts/setup's one list: the C libraries' headers, and the fonts the Sudoku digit reader is
# trained on while gridlock builds (Plugins/DigitModelPlugin).
COPY scripts/setup ./scripts/setup
RUN scripts/setup && rm -rf /var/lib/apt/lists/*
COPY Package.swift ./
COPY Sources ./Sources
COPY Plugins ./Plugins
COPY Tests ./Tests
# The build context has no .git: the revision is given (docker build --build-arg
# GRIDLOCK_REVISION=$(git rev-parse HEAD) .) and compiled in; `gridlock --version` prints it.
ARG GRIDLOCK_REVISION=unknown
RUN GRIDLOCK_REVISION=$GRIDLOCK_REVISION swift build -c release --product gridlock
# Only GridlockX86V4, entered after the CPU check, may use more than plain x86-64: this
# compiler's binary is checked as CI checks its own (scripts/check-portable.py).
COPY scripts/check-portable.py ./scripts/check-portable.py
RUN apt-get update && apt-get install -y --no-install-recommends python3 binutils \
    && python3 scripts/check-portable.py .build/release/gridlock && rm -rf /var/lib/apt/lists/*

FROM swift:6.1-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libzmq5 libsqlite3-0 libpng16-16 \
    libjpeg62-turbo && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/.build/release/gridlock /usr/local/bin/gridlock
COPY config /etc/gridlock
COPY data /srv/gridlock/data
WORKDIR /srv/gridlock
ENTRYPOINT ["gridlock"]
