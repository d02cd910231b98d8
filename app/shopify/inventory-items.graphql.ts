// The customs fields of a product variant's inventory item, written from the order page when the
// merchant fixes an HS code or a country of origin ("Save to product"), so the next order of that
// product is prefilled with them. Needs write_inventory.
export const UPDATE_INVENTORY_ITEM_CUSTOMS_MUTATION = `#graphql
  mutation UpdateInventoryItemCustoms($id: ID!, $input: InventoryItemInput!) {
    inventoryItemUpdate(id: $id, input: $input) {
      inventoryItem {
        id
        harmonizedSystemCode
        countryCodeOfOrigin
      }
      userErrors {
        field
        message
      }
    }
  }
`;
