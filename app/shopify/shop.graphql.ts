// Shop.billingAddress is deprecated in 2026-10: the ship-from fallback is `shopAddress`.
export const SHOP_AND_LOCATIONS_FOR_LABELS_QUERY = `#graphql
  query ShopAndLocationsForLabels($locationsFirst: Int!) {
    shop {
      id
      name
      email
      contactEmail
      myshopifyDomain
      currencyCode
      weightUnit
      unitSystem
      ianaTimezone
      shopAddress {
        company
        address1
        address2
        city
        province
        provinceCode
        zip
        country
        countryCodeV2
        phone
      }
    }
    locations(first: $locationsFirst) {
      pageInfo {
        hasNextPage
      }
      nodes {
        id
        legacyResourceId
        name
        isActive
        fulfillsOnlineOrders
        shipsInventory
        address {
          address1
          address2
          city
          province
          provinceCode
          zip
          country
          countryCode
          phone
        }
      }
    }
  }
`;

// The smallest read there is (2 points): its answer tells the shop's rate limit, for a page that
// has not asked Shopify anything yet in this process (the run page's estimate).
export const SHOP_ID_QUERY = `#graphql
  query ShopId {
    shop {
      id
    }
  }
`;
