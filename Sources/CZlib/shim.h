// The system zlib (Debian's zlib1g-dev), for inflating the gzip-encoded attachments CouchDB
// sends and accepts.
#include <zlib.h>
