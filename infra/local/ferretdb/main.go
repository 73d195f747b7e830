// Command ferretdb-embedded is a MongoDB-wire server for local development and contract tests:
// FerretDB v1 (github.com/FerretDB/FerretDB/ferretdb, embedded) with its SQLite handler, so no
// PostgreSQL and no MongoDB binary are needed. Built and started by infra/local/mongo-wire.sh.
//
// Limits of FerretDB v1 that matter here: no multi-document transactions, no change streams, no
// replica set (so no retryable-write sessions semantics beyond a single server), a subset of the
// aggregation pipeline and of index options. Code that must run on it should stick to single-document
// writes, find/count, simple indexes (see services/readstore/mongo-read-store.ts).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	_ "net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dir := flag.String("dir", "data", "directory for the SQLite databases (one file per database)")
	level := flag.String("log-level", "info", "log level: debug, info, warn, error")
	pprofAddr := flag.String("pprof", "", "address to serve net/http/pprof on (empty: off)")
	flag.Parse()
	if *pprofAddr != "" {
		go func() { _ = http.ListenAndServe(*pprofAddr, nil) }()
	}

	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(os.Stderr, "bad -log-level %q: %v\n", *level, err)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl}))

	abs, err := filepath.Abs(*dir)
	if err != nil {
		logger.Error("resolving data dir", "err", err)
		os.Exit(1)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		logger.Error("creating data dir", "err", err)
		os.Exit(1)
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: *listen},
		Logger:   logger,
		Handler:  "sqlite",
		// The SQLite handler wants a directory URI that ends with a slash. Write transactions begin IMMEDIATE: a
		// deferred one that meets another writer when it upgrades fails at once with SQLITE_BUSY, bypassing the
		// busy timeout, and bursts of concurrent writes then came back as InternalError.
		SQLiteURL: "file:" + abs + "/?_txlock=immediate",
	})
	if err != nil {
		logger.Error("starting FerretDB", "err", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	logger.Info("ferretdb-embedded listening", "uri", "mongodb://"+*listen+"/", "dir", abs)
	if err := f.Run(ctx); err != nil {
		logger.Error("FerretDB stopped with an error", "err", err)
		os.Exit(1)
	}
	logger.Info("ferretdb-embedded stopped")
}
