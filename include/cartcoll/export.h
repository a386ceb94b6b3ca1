/* SPDX-License-Identifier: BSD-3-Clause */
/* Marks the functions and classes that libcartcoll exports: the library is built with hidden
 * visibility, so everything without this mark stays internal to it. */
#ifndef CARTCOLL_EXPORT_H
#define CARTCOLL_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define CARTCOLL_API __attribute__((visibility("default")))
#else
#define CARTCOLL_API
#endif

#endif /* CARTCOLL_EXPORT_H */
