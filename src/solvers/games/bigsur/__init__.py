"""Big Sur: card data (``data``), rules (``reference``) and highway scoring (``scoring``)."""
