-- This remote database's incarnation: changes when the oneway schema is installed anew.
select incarnation::text from oneway.node
