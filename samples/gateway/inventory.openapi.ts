/** The OpenAPI 3.1 document of the inventory API (inventory.api.ts), as its team publishes it. */
export const inventoryDocument = {
  "openapi": "3.1.0",
  "info": {
    "title": "Inventory",
    "version": "1.0.0"
  },
  "paths": {
    "/stock": {
      "get": {
        "operationId": "listStock",
        "summary": "Copies in stock of every book",
        "responses": {
          "200": {
            "description": "The stock",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "properties": {
                    "items": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/Stock"
                      }
                    }
                  },
                  "required": [
                    "items"
                  ]
                }
              }
            }
          }
        }
      }
    },
    "/stock/{isbn}": {
      "get": {
        "operationId": "getStock",
        "summary": "Copies in stock of one book",
        "parameters": [
          {
            "name": "isbn",
            "in": "path",
            "required": true,
            "description": "The book's ISBN-13",
            "schema": {
              "type": "string",
              "pattern": "^\\d{13}$"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Its stock",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Stock"
                }
              }
            }
          },
          "404": {
            "description": "No such book"
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "Stock": {
        "type": "object",
        "properties": {
          "isbn": {
            "type": "string"
          },
          "copies": {
            "type": "integer",
            "minimum": 0
          }
        },
        "required": [
          "isbn",
          "copies"
        ]
      }
    }
  }
};
