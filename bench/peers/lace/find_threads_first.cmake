# SPDX-License-Identifier: Apache-2.0
# Included into a Lace client's project (CMAKE_PROJECT_INCLUDE) by the
# clients command.  Lace 2.0.3's installed lace-config.cmake links
# Threads::Threads without finding Threads, so a client that calls
# find_package(lace) before anything finds Threads fails to configure
# against it.  Finding Threads here first keeps the client's source as it is.
find_package(Threads REQUIRED)
