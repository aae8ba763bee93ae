// SPDX-License-Identifier: MIT
// Outputs that appear under their name only when complete.
#pragma once

#include <string>

namespace libtrace {

// The bytes of a file being written, which take their name only when
// committed. Created unnamed (O_TMPFILE) in the destination's directory where
// the file system allows it, so that nothing is left behind whatever ends the
// process, SIGKILL included; elsewhere as "DEST.trak-XXXXXX", removed by the
// destructor and, once remove_temporaries_on_signals() ran, on SIGINT,
// SIGTERM, SIGHUP and SIGPIPE.
class TempFile {
 public:
  // Throws Error naming `dest`. A file replaced keeps its permissions; a new
  // one gets those creat() would give it.
  explicit TempFile(const std::string& dest);
  ~TempFile();  // discards the bytes unless committed
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  int fd() const { return fd_; }
  // A path that opens the bytes written so far, to read them back.
  std::string path() const;
  // Closes the file and gives it the name `name`, atomically replacing what
  // had it (the destination, or "DEST.partial" to keep a failed run's bytes).
  void commit(const std::string& name);
  // Closes and drops the bytes.
  void discard();

 private:
  int fd_ = -1;
  int slot_ = -1;      // in the signal handlers' list, while named
  std::string named_;  // the temporary's name where it has one
  std::string dest_;
};

// Installs handlers that remove the named temporaries of TempFile on SIGINT,
// SIGTERM, SIGHUP and SIGPIPE, then let the signal end the process as it
// would have. For tools; a signal with a handler of its own keeps it.
void remove_temporaries_on_signals();

}  // namespace libtrace
