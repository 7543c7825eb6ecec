sh -c 'true'
