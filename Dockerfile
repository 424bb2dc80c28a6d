# PAST NYC API server image.
#
#   docker build -t past-nyc .
#   docker run --rm -p 8080:8080 -v past-nyc-data:/var/lib/past-nyc past-nyc
#
# Every RUN step is a plain shell command, so the build can be replayed by hand
# on a Debian 12 machine without a Docker engine.

# Build: the official Swift image on Debian 12, so that the binary's glibc
# matches the runtime image below.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-dev zlib1g-dev libpq-dev libcurl4-openssl-dev libturbojpeg0-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so that a source change does not fetch them again.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product past-nyc \
    && install -m 0755 "$(swift build -c release --static-swift-stdlib --show-bin-path)/past-nyc" /usr/local/bin/past-nyc

# Run: only the C and C++ libraries the binary links (`ldd`: the Swift runtime is static) and
# tini, which forwards signals and reaps children as PID 1.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-0 zlib1g libpq5 libcurl4 libturbojpeg0 libstdc++6 tini \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --system --user-group --uid 10001 --home-dir /var/lib/past-nyc --shell /usr/sbin/nologin past-nyc \
    && mkdir -p /var/lib/past-nyc \
    && chown past-nyc:past-nyc /var/lib/past-nyc
COPY --from=build /usr/local/bin/past-nyc /usr/local/bin/past-nyc
# The server reads its source data from ./Data, its OpenAPI document from ./openapi.yaml and
# its web pages (the map at /, the API reference at /docs) from ./Web, so it runs in /app.
WORKDIR /app
COPY Data ./Data
COPY openapi.yaml ./openapi.yaml
COPY Web ./Web
USER past-nyc
ENV PORT=8080
EXPOSE 8080
VOLUME ["/var/lib/past-nyc"]
# bash's /dev/tcp speaks to the server without installing curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-8080} && printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && read -r -t 4 status_line <&3 && [[ $status_line == 'HTTP/1.1 200 '* ]]"]
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/past-nyc"]
CMD ["serve", "--data-dir", "/var/lib/past-nyc"]
