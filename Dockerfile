# syntax=docker/dockerfile:1
# precisiond: a static, non-root, shell-less image.
#   docker build --build-arg VERSION=v1.0.0 -t precisiond:v1.0.0 .
#   docker run -p 127.0.0.1:8003:8003 -v precisiond-data:/data \
#     -v "$PWD/tokens.json:/run/secrets/tokens.json:ro" -e PRECISIOND_API_TOKENS=/run/secrets/tokens.json \
#     precisiond:v1.0.0
# It listens on 0.0.0.0 and so refuses to start without API tokens (precisiond
# token new NAME; docs/operations.md) unless PRECISIOND_INSECURE_NO_AUTH=true.
# deploy/deploy_test.go runs the same go build line and checks the binary is static.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/precisiond ./cmd/precisiond
# The data directory (toggle file, downloads) must exist and belong to nonroot.
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
# The MCP registry matches the image to server.json by this label
# (deploy/server_json_test.go checks that the two agree).
LABEL io.modelcontextprotocol.server.name="io.github.precisiond/precisiond"
COPY --from=build /out/precisiond /precisiond
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
ENV PRECISIOND_ADDR=0.0.0.0:8003 \
    PRECISIOND_DATA_DIR=/data
EXPOSE 8003
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 CMD ["/precisiond", "health"]
ENTRYPOINT ["/precisiond"]
CMD ["serve"]
