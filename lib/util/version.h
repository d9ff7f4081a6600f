#ifndef BF_VERSION_H
#define BF_VERSION_H
#define BF_VERSION "0.1.0"
#endif
