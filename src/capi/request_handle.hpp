#pragma once
// What a C Cart_request points to.
#include "cartcoll/cartcoll.h"
#include "cartcoll/cartcoll.hpp"

struct Cart_request_s {
  cartcoll::Request request;
};
